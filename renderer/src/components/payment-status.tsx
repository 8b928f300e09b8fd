/** A payment's state as a cashier says it, with pending ones clearly marked. */
import type { PaymentState } from '../../../shared/domain';
import './components.css';

const TEXT: Record<PaymentState, string> = {
  created: 'Pending',
  submitting: 'Pending',
  awaiting_customer: 'Pending',
  uncertain: 'Pending (checking)',
  rejected: 'Refused',
  success: 'Paid',
  failed: 'Not paid',
  // Neither paid nor not paid: counted apart, in words that say what the till knows.
  not_sent: 'Not sent (no prompt)',
  unconfirmed: 'May have reached the service',
};

export function paymentStatusText(state: PaymentState): string {
  return TEXT[state];
}

export function PaymentStatus({ state }: { state: PaymentState }) {
  const kind = state === 'success' ? 'ok' : state === 'failed' || state === 'rejected' || state === 'not_sent' ? 'bad' : 'pending';
  return <span className={`pill pill-${kind}`}>{TEXT[state]}</span>;
}
