/** owner/: the owner's phone view. Others may use createOwnerView, and the figures' reads (for bench:owner-view). */
export { createOwnerView, OWNER_ROUTES, type OwnerView } from './owner-view.js';
export { dayFigures, daysFigures, ownerPayment } from './figures.js';
