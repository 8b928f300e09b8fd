/** Notices for payments the cashier stopped waiting for: they still resolve, and say so here. */
import type { PaymentView } from '../../../shared/ipc/contract';
import { ghs, phone } from '../format';

type Props = { notices: PaymentView[]; onDismiss: (id: string) => void; onOpen: (payment: PaymentView) => void };

export function LateNotices({ notices, onDismiss, onOpen }: Props) {
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Results of payments you stopped waiting for">
      {notices.map((p) => (
        <li key={p.id} className={`notice ${p.state === 'success' ? 'notice-ok' : 'notice-bad'}`} data-testid="late-notice">
          <span>
            {p.state === 'success' ? 'PAID' : 'NOT PAID'}: {ghs(p.amount)} from {phone(p.msisdn)} (you stopped waiting)
          </span>
          <button type="button" className="link" onClick={() => onOpen(p)}>
            Show
          </button>
          <button type="button" className="link" onClick={() => onDismiss(p.id)}>
            Dismiss<span className="visually-hidden"> notice for {ghs(p.amount)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
