/** The takings domain's front door (what other folders may use): the results ledger (transactions, daily rollup) and the takings read from it. */
export { addSums, SUMS_SQL, toTotals, zeroSums } from './sums.js';
export type { Sums } from './sums.js';
export { Takings } from './takings.js';
export { SANDBOX_NETWORK, TAKINGS_NETWORK_SQL, tillIdOfMerchantRef, TransactionsStore } from './transactions-store.js';
export type { TransactionRow } from './transactions-store.js';
export { UnsentSums } from './unsent.js';
