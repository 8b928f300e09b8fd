/** A payment's settle by hand, in its detail: what was recorded, by whom and when, the note, and what the service said later. */
import type { HandSettlement } from '../../../shared/ipc/contract';
import { dateTime, ghs } from '../format';

const CHECK_TEXT = {
  confirmed: "The service's own result arrived later and agreed: confirmed.",
  overridden: "The service's own result arrived later and disagreed: the service's result counts (shown above).",
} as const;

export function HandSettlementDetail({ hand, timeZone }: { hand: HandSettlement; timeZone: string }) {
  const what = hand.outcome === 'paid' ? `PAID, reference ${hand.reference ?? '—'}` : 'NOT PAID';
  const fee = hand.outcome === 'paid' ? (hand.fee === null ? ', no fee given (0.00 counted)' : `, fee ${ghs(hand.fee)}`) : '';
  return (
    <>
      <dt>Settled by hand</dt>
      <dd data-testid="detail-settled-by-hand">
        {what}
        {fee} by {hand.by}, {dateTime(hand.at, timeZone)}. Note: {hand.note}
        {hand.check ? ` ${CHECK_TEXT[hand.check]}` : " The service's own result has not arrived."}
      </dd>
    </>
  );
}
