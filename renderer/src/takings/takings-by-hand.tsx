/** The part of the figures settled by hand (no result from the service yet, or it agreed): the owner knows how much rests on someone's check. */
import type { TakingsTotals } from '../../../shared/ipc/contract';
import { ghs } from '../format';

export function TakingsByHand({ totals, testId }: { totals: TakingsTotals; testId: string }) {
  if (totals.count === 0) return null;
  const payments = totals.count === 1 ? '1 payment' : `${totals.count} payments`;
  return (
    <p className="by-hand" data-testid={testId}>
      Settled by hand: {payments} ({totals.succeeded} paid, {totals.failed} not paid), {ghs(totals.gross)} of the gross. History shows who
      settled each and why.
    </p>
  );
}
