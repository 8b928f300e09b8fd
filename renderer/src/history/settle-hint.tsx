/**
 * A payment still waiting for its result: when it can be settled by hand if none comes. Settling by hand
 * opens once the payment is overdue (shared/overdue.ts); until then its detail says how long.
 */
import type { PaymentView } from '../../../shared/ipc/contract';
import { isOpen } from '../../../shared/domain';
import { OVERDUE_AFTER_MS } from '../../../shared/overdue';
import { time } from '../format';
import { useNow } from '../hooks/use-now';
import type { SettleAccess } from './settle-by-hand';

type Hinted = Pick<PaymentView, 'state' | 'createdAt' | 'overdue' | 'settledByHand'>;

/** The words, or null when there is nothing to wait for (a result, overdue already, settled by hand). */
export function settleHintText(payment: Hinted, nowMs: number, settle: SettleAccess, timeZone: string): string | null {
  if (!isOpen(payment.state) || payment.overdue || payment.settledByHand) return null;
  const at = Date.parse(payment.createdAt) + OVERDUE_AFTER_MS;
  const minutes = Math.max(1, Math.ceil((at - nowMs) / 60_000));
  const when = `in ${minutes} minute${minutes === 1 ? '' : 's'} (at ${time(new Date(at).toISOString(), timeZone)})`;
  const who = settle === 'no' ? 'a manager or the owner can settle it by hand' : 'it can be settled by hand';
  return `Waiting for its result. If none comes, ${who} ${when}.`;
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
