/** One payment in full, from the history list. */
import type { PaymentView } from '../../../shared/ipc/contract';
import { PaymentStatus } from '../components/payment-status';
import { dateTime, ghs, networkLabel, phone } from '../format';

type Props = { payment: PaymentView; timeZone: string; onClose: () => void };

export function PaymentDetail({ payment, timeZone, onClose }: Props) {
  return (
    <section className="payment-detail" aria-labelledby="detail-title" data-testid="payment-detail">
      <h2 id="detail-title">
        {ghs(payment.amount)} <PaymentStatus state={payment.state} />
      </h2>
      <dl className="detail-list">
        <dt>Customer</dt>
        <dd>
          {phone(payment.msisdn)} · {networkLabel(payment.network)}
          {payment.customerName ? ` · ${payment.customerName}` : ''}
        </dd>
        <dt>Fee</dt>
        <dd>{ghs(payment.fee)}</dd>
        <dt>Net</dt>
        <dd>{ghs(payment.net)}</dd>
        <dt>Description</dt>
        <dd>{payment.description || '—'}</dd>
        <dt>Reference</dt>
        <dd>{payment.reference ?? '—'}</dd>
        <dt>Till reference</dt>
        <dd>{payment.merchantRef}</dd>
        <dt>Till</dt>
        <dd>{payment.tillId}</dd>
        <dt>Started</dt>
        <dd>{dateTime(payment.createdAt, timeZone)}</dd>
        <dt>Finished</dt>
        <dd>{dateTime(payment.completedAt, timeZone)}</dd>
        {payment.errorMessage ? (
          <>
            <dt>Note</dt>
            <dd>{payment.errorMessage}</dd>
          </>
        ) : null}
      </dl>
      <button type="button" className="secondary" onClick={onClose}>
        Back to the list
      </button>
    </section>
  );
}
