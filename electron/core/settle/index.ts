/** The settle domain's front door (what other folders may use): a manager's settlement of a payment whose result never came. */
export { settleByHand } from './settle-by-hand.js';
export type { SettleDeps } from './settle-by-hand.js';
export { checkSettlement } from './settle-rules.js';
export type { CheckedSettlement, SettleRefusal, SettleRequest } from './settle-rules.js';
