/** The question Charge asks before an unusual prompt goes out. "No, go back" has the focus: Enter never charges. */
import { formatGhs } from '../../../shared/money';
import { dateTime, ghs, phone } from '../format';
import { PaymentStatus } from '../components/payment-status';
import { QuestionDialog } from '../components/question-dialog';
import type { SimilarPayment } from '../../../shared/ipc/contract';
import { amountQuestion, type ChargeCheck } from './charge-checks';

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
  return (
    <QuestionDialog
      name="confirm"
      testId="confirm-charge"
      title={check.kind === 'duplicate' ? 'A payment to this number is already there' : 'Check before charging'}
      safe={{ label: 'No, go back', onClick: onNo }}
      ahead={{ label: YES[check.kind], onClick: onYes }}
    >
      <Question check={check} timeZone={timeZone} />
    </QuestionDialog>
  );
}
