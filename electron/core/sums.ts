/** Counts and money (integer pesewas) of final transactions, summed and shown as the screens' totals. */
import { formatAmount } from '../../shared/money.js';
import type { TakingsTotals } from '../../shared/ipc/contract.js';

export type Sums = { succeeded: number; failed: number; gross: number; fees: number; net: number };

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
