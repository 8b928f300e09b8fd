/** The result: SUCCESS big and unmistakable, or FAILED with what it can mean and a way to try again. */
import { useRef } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { dateTime, ghs, networkLabel, phone } from '../format';
import { Receipt } from './receipt';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';

type Props = {
  payment: PaymentView;
  tillName: string;
  timeZone: string;
  onNewSale: () => void;
  onTryAgain: () => void;
};

export function ResultScreen({ payment, tillName, timeZone, onNewSale, onTryAgain }: Props) {
  const success = payment.state === 'success';
  const firstRef = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(firstRef);

  return (
    <section className={`result-screen ${success ? 'result-success' : 'result-failed'}`} aria-labelledby="result-title">
      <h1 id="result-title" className="result-title" data-testid="result-title">
        {success ? 'PAID' : 'NOT PAID'}
      </h1>
      <p className="result-amount" data-testid="result-amount">
        {ghs(payment.amount)}
      </p>
      {success ? (
        <dl className="result-details">
          <dt>Fee</dt>
          <dd data-testid="result-fee">{ghs(payment.fee)}</dd>
          <dt>You receive</dt>
          <dd data-testid="result-net">{ghs(payment.net)}</dd>
          <dt>Reference</dt>
          <dd data-testid="result-reference">{payment.reference ?? '—'}</dd>
          <dt>Time</dt>
          <dd>{dateTime(payment.completedAt, timeZone)}</dd>
          <dt>Customer</dt>
          <dd>
            {phone(payment.msisdn)} · {networkLabel(payment.network)}
          </dd>
        </dl>
      ) : (
        <div className="result-failed-help" data-testid="result-help">
          <p>
            The money did <strong>not</strong> move. The customer may have declined, the prompt may have timed out, the wallet may not have
            had enough money, or the network rejected the prompt — the service does not say which.
          </p>
          <p>Check with the customer, then try again or take another payment method.</p>
          <p className="muted">
            {phone(payment.msisdn)} · {networkLabel(payment.network)} · ref {payment.reference ?? payment.merchantRef}
          </p>
        </div>
      )}
      <div className="actions">
        {success ? (
          <>
            <button ref={firstRef} type="button" className="primary big" onClick={onNewSale}>
              New sale
            </button>
            <button type="button" className="secondary" onClick={() => window.print()}>
              Print receipt
            </button>
          </>
        ) : (
          <>
            <button ref={firstRef} type="button" className="primary big" onClick={onTryAgain}>
              Try again with the same details
            </button>
            <button type="button" className="secondary" onClick={onNewSale}>
              New sale
            </button>
            <button type="button" className="secondary" onClick={() => window.print()}>
              Print slip
            </button>
          </>
        )}
      </div>
      <Receipt payment={payment} tillName={tillName} timeZone={timeZone} />
    </section>
  );
}
