/** The payments found, one row each: when (and who started it), amount, customer, status, and a button that opens one. */
import { isFinal } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import { PaymentStatus } from '../components/payment-status';
import { dayText, ghs, isoDate, networkLabel, phone, time } from '../format';
import { TableHead } from '../components/table-head';

/** The row's mark for a payment settled by hand, and what the service said since. */
function handTag(check: 'confirmed' | 'overridden' | null): string {
  if (check === 'overridden') return 'settled by hand, corrected by the service';
  return check === 'confirmed' ? 'settled by hand, confirmed' : 'settled by hand';
}

/**
 * History lists a payment by the day it was started; Takings counts it on the day its result arrived. When the
 * two differ (a sale across midnight), the row says the day it completed, the day Takings counts it under.
 */
export function completedOtherDay(p: Pick<PaymentView, 'createdAt' | 'completedAt'>, timeZone: string): string | null {
  if (!p.completedAt) return null;
  const day = isoDate(new Date(p.completedAt), timeZone);
  return day === isoDate(new Date(p.createdAt), timeZone) ? null : `completed ${dayText(day)} ${time(p.completedAt, timeZone)}`;
}

type Props = { items: PaymentView[]; timeZone: string; onOpen: (payment: PaymentView) => void };

export function HistoryTable({ items, timeZone, onOpen }: Props) {
  const today = isoDate(new Date(), timeZone);
  return (
    <table className="history-table">
      <TableHead columns={['When', { label: 'Amount', numeric: true }, 'Customer', 'Status', 'Details']} />
      <tbody>
        {items.map((p) => {
          const day = isoDate(new Date(p.createdAt), timeZone);
          return (
            <tr key={p.id} data-testid="history-row" className={isFinal(p.state) ? '' : 'row-pending'}>
              <td>
                {day === today ? `Today ${time(p.createdAt, timeZone)}` : `${dayText(day)} ${time(p.createdAt, timeZone)}`}
                {completedOtherDay(p, timeZone) ? (
                  <span className="muted" data-testid="history-completed-day">
                    {' '}
                    ({completedOtherDay(p, timeZone)})
                  </span>
                ) : null}
                {p.startedBy ? (
                  <span className="muted" data-testid="history-cashier">
                    {' '}
                    · <bdi>{p.startedBy}</bdi>
                  </span>
                ) : null}
              </td>
              <td className="num">{ghs(p.amount)}</td>
              <td>
                {phone(p.msisdn)} <span className="muted">{networkLabel(p.network)}</span>
              </td>
              <td>
                <PaymentStatus state={p.state} />
                {p.receiptNo ? (
                  <span className="receipt-no" data-testid="history-receipt-no">
                    {' '}
                    {p.receiptNo}
                  </span>
                ) : null}
                {p.overdue ? (
                  <span className="overdue-tag" data-testid="history-overdue">
                    {' '}
                    no result after 15 min
                  </span>
                ) : null}
                {p.settledByHand ? (
                  <span className="hand-tag" data-testid="history-settled-by-hand">
                    {' '}
                    {handTag(p.settledByHand.check)}
                  </span>
                ) : null}
              </td>
              <td>
                <button type="button" className="link" onClick={() => onOpen(p)}>
                  Open
                  <span className="visually-hidden">
                    {' '}
                    payment of {ghs(p.amount)} from {phone(p.msisdn)}
                  </span>
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
