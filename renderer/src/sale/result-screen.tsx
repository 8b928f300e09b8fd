/** The result: SUCCESS big and unmistakable, or FAILED with what it can mean and a way to try again. */
import { useCallback, useRef, type RefObject } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { dateTime, ghs, networkLabel, phone } from '../format';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { useTopKeys } from '../hooks/use-top-keys';
import { PaymentPrint } from '../printing/payment-print';
import type { AppStatus } from '../hooks/use-app-status';

type Props = {
  payment: PaymentView;
  timeZone: string;
  printing: AppStatus['printing'];
  entry: AmountEntry;
  /** A new, empty sale; `amount` is the first key of it when the cashier simply went on typing. */
  onNewSale: (amount?: string) => void;
  onTryAgain: () => void;
  /** The signed-in person's id (null: nobody, or no staff). */
  viewer: string | null;
};

/** A key that starts the next sale's amount straight from a result screen. */
function amountKey(e: KeyboardEvent, entry: AmountEntry): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  return /^[0-9]$/.test(e.key) || (entry === 'cedis' && e.key === '.');
}

/**
 * Digits (and the point, in cedis) typed on a result start the next sale with them, only while the result
 * is on top: a PIN typed at the lock over it is the lock's, whole.
 */
function useAmountKeys(root: RefObject<HTMLElement | null>, entry: AmountEntry, onNewSale: (amount?: string) => void): void {
  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (!amountKey(e, entry)) return;
      e.preventDefault();
      onNewSale(e.key === '.' ? '0.' : e.key);
    },
    [entry, onNewSale],
  );
  useTopKeys(root, onKey);
}

export function ResultScreen({ payment, timeZone, printing, entry, onNewSale, onTryAgain, viewer }: Props) {
  const success = payment.state === 'success';
  // Paid or not, the focused default is a new, empty sale: an Enter by reflex never prompts the same customer again.
  const firstRef = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(firstRef);

  const rootRef = useRef<HTMLElement>(null);
  useAmountKeys(rootRef, entry, onNewSale);

  return (
    <section ref={rootRef} className={`result-screen ${success ? 'result-success' : 'result-failed'}`} aria-labelledby="result-title">
      <h1 id="result-title" className="result-title" data-testid="result-title">
        {success ? 'PAID' : 'NOT PAID'}
      </h1>
      <p className="result-amount" data-testid="result-amount">
        {ghs(payment.amount)}
      </p>
      {payment.startedBy ? (
        <p className="started-by" data-testid="started-by">
          Started by {payment.startedBy}
        </p>
      ) : null}
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
          <button ref={firstRef} type="button" className="primary big" onClick={() => onNewSale()}>
            New sale
          </button>
        ) : (
          <>
            <button ref={firstRef} type="button" className="primary big" onClick={() => onNewSale()}>
              New sale
            </button>
            <button type="button" className="secondary" onClick={onTryAgain}>
              Try again with the same details
            </button>
          </>
        )}
      </div>
      <PaymentPrint
        payment={payment}
        printer={printing.printer}
        autoPrint={printing.autoPrint}
        viewer={viewer}
        onPrinted={() => firstRef.current?.focus()}
      />
    </section>
  );
}
