/**
 * The service's own result for a payment settled by hand (it came late: a delivery replayed from the
 * dashboard). If it agrees (paid with the same reference, or not paid) the payment is confirmed and the
 * service's fee and net replace the hand's. If it disagrees, the service's result wins: the payment's
 * state, the transaction row and the rollup follow it, the hand values stay on the payment so a report
 * can show the correction, and the owner gets an alert. A second delivery finds the check made and
 * changes nothing. Run it in the transaction that would store the result.
 */
import type { Environment } from '../../../shared/domain.js';
import { formatGhs, parseAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import { NOT_PAID_REFERENCE_PREFIX, type WireTransaction } from '../../../shared/wire/transaction.js';
import type { Alerts } from '../alerts/index.js';
import type { PaymentRow, PaymentsRepo } from './payments-repo.js';
import type { TransactionsStore } from '../takings/index.js';

export type HandResultDeps = { repo: PaymentsRepo; transactions: TransactionsStore; alerts: Alerts; now: () => number };

/** The payment it changed, or null when `tx` is not for a payment settled by hand and still unchecked. */
export function landOnHandSettled(
  deps: HandResultDeps,
  environment: Environment,
  tx: WireTransaction,
  relaySeq: number | null,
): PaymentRow | null {
  const { repo, transactions, alerts, now } = deps;
  const payment =
    (tx.clientReference ? repo.byMerchantRef(environment, tx.clientReference) : null) ?? repo.byReference(environment, tx.reference);
  if (!payment || payment.hand_outcome === null || payment.hand_check !== null) return null;
  const paid = tx.status === 'SUCCESS';
  const agrees = paid ? payment.hand_outcome === 'paid' && payment.hand_reference === tx.reference : payment.hand_outcome === 'not_paid';
  const at = now();
  transactions.replaceHandRow(environment, handReferenceOf(payment), tx, relaySeq, at, agrees);
  const service = { fee: parseAmount(tx.fee, { allowZero: true }), net: parseAmount(tx.net, { allowZero: true }) };
  if (agrees) return repo.update(payment.id, { ...service, hand_check: 'confirmed' }, at);
  const updated = repo.update(
    payment.id,
    {
      ...service,
      hand_check: 'overridden',
      state: paid ? 'success' : 'failed',
      reference: tx.reference,
      completed_at: Date.parse(tx.completedAt),
    },
    at,
  );
  alerts.raiseOverridden(payment.id, environment, overriddenMessage(payment, tx));
  return updated;
}

function overriddenMessage(payment: PaymentRow, tx: WireTransaction): string {
  const hand = payment.hand_outcome === 'paid' ? `PAID (reference ${payment.hand_reference})` : 'NOT PAID';
  const service = tx.status === 'SUCCESS' ? `PAID (reference ${tx.reference})` : `NOT PAID (reference ${tx.reference})`;
  return (
    `${formatGhs(payment.amount)} from ${displayMsisdn(payment.msisdn)} was settled by hand as ${hand} by ${payment.hand_by_name ?? 'someone'}, ` +
    `but the service's result says ${service}. The service's result now counts in takings.`
  );
}

/** The reference a hand settlement's transaction row is stored under (a not-paid one never collides with the service's). */
export function handReferenceOf(payment: Pick<PaymentRow, 'hand_outcome' | 'hand_reference' | 'merchant_ref'>): string {
  return payment.hand_outcome === 'paid' && payment.hand_reference
    ? payment.hand_reference
    : `${NOT_PAID_REFERENCE_PREFIX}${payment.merchant_ref}`;
}
