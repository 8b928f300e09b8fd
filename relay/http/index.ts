/**
 * http/: the relay's HTTP server: the webhook receiver (and its verification), the till API and
 * event streams, the limits on connections. `startRelay` opens the store, serves, and shuts down;
 * the CLI and the embedded till start the relay through it.
 */
export { startRelay, type RelayConfig, type RelayOptions, type RunningRelay } from './server.js';
// The owner's page's reads (issue 21), for bench:owner-view.
export { dayFigures, daysFigures, ownerPayment } from './owner-figures.js';
