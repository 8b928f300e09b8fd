/**
 * A payment still waiting for its result (open, or unconfirmed: it may have reached the service): when it can
 * be settled by hand if none comes. A not_sent one never can (it never reached the service). Settling by hand
 * opens once the payment is overdue (shared/overdue.ts); until then its detail says how long.
 */
import type { PaymentView } from '../../../shared/ipc/contract';
import { awaitsResult, OVERDUE_AFTER_MS } from '../../../shared/overdue';
import { time } from '../format';
import { useNow } from '../hooks/use-now';
import type { SettleAccess } from './settle-by-hand';

type Hinted = Pick<PaymentView, 'state' | 'createdAt' | 'overdue' | 'settledByHand'>;

/** The words, or null when there is nothing to wait for (a result, overdue already, settled by hand). */
export function settleHintText(payment: Hinted, nowMs: number, settle: SettleAccess, timeZone: string): string | null {
  if (!awaitsResult(payment.state) || payment.overdue || payment.settledByHand) return null;
  const at = Date.parse(payment.createdAt) + OVERDUE_AFTER_MS;
  const minutes = Math.max(1, Math.ceil((at - nowMs) / 60_000));
  const when = `in ${minutes} minute${minutes === 1 ? '' : 's'} (at ${time(new Date(at).toISOString(), timeZone)})`;
  const who = settle === 'no' ? 'a manager or the owner can settle it by hand' : 'it can be settled by hand';
  // Unconfirmed: the till stopped sending it; the dashboard says whether it reached the service.
  const waiting =
    payment.state === 'unconfirmed' ? 'It may have reached the payment service: its result lands here if it did' : 'Waiting for its result';
  return `${waiting}. If none comes, ${who} ${when}.`;
}

export function SettleHint({ payment, settle, timeZone }: { payment: PaymentView; settle: SettleAccess; timeZone: string }) {
  const now = useNow(15_000);
  const text = settleHintText(payment, now, settle, timeZone);
  return text ? (
    <p className="hint" data-testid="detail-settle-hint">
      {text}
    </p>
  ) : null;
}
