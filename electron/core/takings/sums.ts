/** Counts and money (integer pesewas) of final transactions, summed and shown as the screens' totals. */
import { formatAmount } from '../../../shared/money.js';
import type { TakingsTotals } from '../../../shared/ipc/contract.js';

export type Sums = { succeeded: number; failed: number; gross: number; fees: number; net: number };

/** SQL for the Sums of a set of transactions (only SUCCESS adds money; 0 when there are none). */
export const SUMS_SQL = `coalesce(sum(status = 'SUCCESS'), 0) AS succeeded, coalesce(sum(status = 'FAILED'), 0) AS failed,
  coalesce(sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END), 0) AS gross,
  coalesce(sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END), 0) AS fees,
  coalesce(sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END), 0) AS net`;

/** SQL for the Sums of a set of daily rollup rows (daily_takings). */
export const ROLLUP_SUMS_SQL = `coalesce(sum(succeeded), 0) AS succeeded, coalesce(sum(failed), 0) AS failed,
  coalesce(sum(gross), 0) AS gross, coalesce(sum(fees), 0) AS fees, coalesce(sum(net), 0) AS net`;

export const zeroSums = (): Sums => ({ succeeded: 0, failed: 0, gross: 0, fees: 0, net: 0 });

export function addSums(into: Sums, row: Sums): void {
  into.succeeded += row.succeeded;
  into.failed += row.failed;
  into.gross += row.gross;
  into.fees += row.fees;
  into.net += row.net;
}

export const toTotals = (s: Sums): TakingsTotals => ({
  count: s.succeeded + s.failed,
  succeeded: s.succeeded,
  failed: s.failed,
  gross: formatAmount(s.gross),
  fees: formatAmount(s.fees),
  net: formatAmount(s.net),
});
