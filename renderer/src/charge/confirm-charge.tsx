/** The question Charge asks before an unusual prompt goes out. "No, go back" has the focus: Enter never charges. */
import { useRef, type KeyboardEvent } from 'react';
import { formatGhs } from '../../../shared/money';
import { dateTime, ghs, phone } from '../format';
import { PaymentStatus } from '../components/payment-status';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import type { SimilarPayment } from '../../../shared/ipc/contract';
import { amountQuestion, type ChargeCheck } from './charge-checks';
import '../components/components.css';

type Props = { check: ChargeCheck; timeZone: string; onYes: () => void; onNo: () => void };

const YES: Record<ChargeCheck['kind'], string> = {
  'amount-low': 'Yes, charge this amount',
  'amount-high': 'Yes, charge this amount',
  'no-account': 'Charge anyway',
  duplicate: 'Yes, prompt again',
};

function Question({ check, timeZone }: { check: ChargeCheck; timeZone: string }) {
  if (check.kind === 'amount-low' || check.kind === 'amount-high') {
    return (
      <>
        <p className="confirm-amount" data-testid="confirm-amount">
          {formatGhs(check.pesewas)}
        </p>
        <p>{amountQuestion(check)}</p>
      </>
    );
  }
  if (check.kind === 'no-account') {
    return (
      <>
        <p>{check.message}</p>
        <p>A prompt to a number without a wallet will not be paid. Charge it anyway only if the customer is sure.</p>
      </>
    );
  }
  const p = check.earlier;
  return (
    <>
      <p>
        This number already has a payment of <strong>{ghs(p.amount)}</strong> from {dateTime(p.at, timeZone)}:{' '}
        <PaymentStatus state={p.state === 'paid' ? 'success' : 'awaiting_customer'} />
      </p>
      <p data-testid="confirm-started-by">{startedWhere(p)}</p>
      <p>Prompting {phone(p.msisdn)} again could charge the customer twice. Check with them first.</p>
    </>
  );
}

/** Who started the earlier payment and at which till, as far as this till knows. */
function startedWhere(p: SimilarPayment): string {
  const who = p.startedBy ? `Started by ${p.startedBy}` : 'Started';
  return `${who} at ${p.thisTill ? 'this till' : 'another till'}${p.tillName ? ` (${p.tillName})` : ''}.`;
}

export function ConfirmCharge({ check, timeZone, onYes, onNo }: Props) {
  const noRef = useRef<HTMLButtonElement>(null);
  useFocusOnArrival(noRef);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    onNo();
  };
  return (
    <div className="overlay">
      <div
        className="confirm-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-body"
        data-testid="confirm-charge"
        onKeyDown={onKeyDown}
      >
        <h2 id="confirm-title">{check.kind === 'duplicate' ? 'A payment to this number is already there' : 'Check before charging'}</h2>
        <div id="confirm-body">
          <Question check={check} timeZone={timeZone} />
        </div>
        <div className="actions">
          <button ref={noRef} type="button" className="primary big" onClick={onNo}>
            No, go back
          </button>
          <button type="button" className="secondary" onClick={onYes}>
            {YES[check.kind]}
          </button>
        </div>
      </div>
    </div>
  );
}
