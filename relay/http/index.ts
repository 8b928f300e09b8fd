/**
 * http/: the relay's HTTP server. Others may use startRelay (with its options and the running relay
 * it gives back), and the owner's page's reads for bench:owner-view.
 */
export { startRelay, type RelayConfig, type RelayOptions, type RunningRelay } from './server.js';
export { dayFigures, daysFigures, ownerPayment } from './owner/index.js';
