/** The history domain's front door (what other folders may use): searching this till's payments, and what a cashier may see of them. */
export { cashierScope, inScope, visiblePayment } from './cashier-scope.js';
export { History, dayBoundsMs } from './history.js';
