/**
 * http/: the relay's HTTP server. Others may use startRelay and its types, the owner's figures (bench), and the
 * public port's routes (relay/docs/http-api.md's test).
 *
 * One folder per caller, each with its front door: webhooks/ (the service's deliveries), tills/ (the
 * till API and event streams), owner/ (the owner's phone page and what it reads), admin/ (the
 * operator's admin API, on its own listener). Here, the server that wires them (server.ts opens the
 * store and starts everything, router.ts routes the public port) and what every caller's requests
 * go through (connection-guard.ts, request-id.ts, database-watch.ts).
 */
export { startRelay, type RelayConfig, type RelayOptions, type RunningRelay } from './server.js';
export { dayFigures, daysFigures, ownerPayment } from './owner/index.js';
export { PUBLIC_ROUTES } from './router.js';
