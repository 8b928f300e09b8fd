/** Notices for payments the cashier stopped waiting for, or the till had open when it stopped: they still resolve, and say so here. */
import type { PaymentView } from '../../../shared/ipc/contract';
import { ghs, phone } from '../format';
import { lateNoticeTitle, lateNoticeWho, type LateNotice } from './late-results';
import '../components/components.css';
import './sale.css';

type Props = { notices: LateNotice[]; onDismiss: (id: string) => void; onOpen: (payment: PaymentView) => void };

export function LateNotices({ notices, onDismiss, onOpen }: Props) {
  // One at a time in the place kept for it: dismissing the newest shows the next.
  const p = notices[0];
  if (!p) return null;
  const more = notices.length - 1;
  return (
    <ul className="notices" aria-label="Late results of payments nobody waited for">
      <li className={`notice ${p.state === 'success' ? 'notice-ok' : 'notice-bad'}`} data-testid="late-notice">
        <span className="notice-text">
          {lateNoticeTitle(p)}: {ghs(p.amount)} from {phone(p.msisdn)} ({lateNoticeWho(p)}){more > 0 ? ` — ${more} more` : ''}
        </span>
        <button type="button" className="link" onClick={() => onOpen(p)}>
          Show
        </button>
        <button type="button" className="link" onClick={() => onDismiss(p.id)}>
          Dismiss<span className="visually-hidden"> notice for {ghs(p.amount)}</span>
        </button>
      </li>
    </ul>
  );
}
