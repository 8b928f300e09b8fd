/** The 80 mm receipt: hidden on screen, the only thing printed (see print.css). */
import type { PaymentView } from '../../../shared/ipc/contract';
import { dateTime, ghs, networkLabel, phone } from '../format';

type Props = { payment: PaymentView; tillName: string; timeZone: string };

export function Receipt({ payment, tillName, timeZone }: Props) {
  const paid = payment.state === 'success';
  return (
    <div className="receipt" data-testid="receipt">
      <p className="receipt-shop">{tillName}</p>
      {payment.environment === 'test' ? <p className="receipt-test">*** TEST — NOT A REAL PAYMENT ***</p> : null}
      <p className="receipt-status">{paid ? 'PAID' : 'NOT PAID'}</p>
      <dl>
        <dt>Amount</dt>
        <dd>{ghs(payment.amount)}</dd>
        <dt>Customer</dt>
        <dd>{phone(payment.msisdn)}</dd>
        <dt>Network</dt>
        <dd>{networkLabel(payment.network)}</dd>
        {payment.description ? (
          <>
            <dt>For</dt>
            <dd>{payment.description}</dd>
          </>
        ) : null}
        <dt>Reference</dt>
        <dd>{payment.reference ?? '—'}</dd>
        <dt>Till ref</dt>
        <dd>{payment.merchantRef}</dd>
        <dt>Time</dt>
        <dd>{dateTime(payment.completedAt ?? payment.updatedAt, timeZone)}</dd>
      </dl>
      <p className="receipt-thanks">Thank you</p>
    </div>
  );
}
