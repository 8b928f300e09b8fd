/** A final result (success or failed) landing on its payment: any payment not yet final, found by merchantRef or reference. */
import { isFinal, NOT_FINAL_STATES, type Environment } from '../../../shared/domain.js';
import type { PaymentRow, PaymentsRepo } from './payments-repo.js';
import type { TransactionsStore } from '../takings/index.js';

/** The updated payment, or null when there is none to update or its result is not stored yet. Run it in the transaction that stores the result. */
export function landResult(
  deps: { repo: PaymentsRepo; transactions: TransactionsStore; now: () => number },
  environment: Environment,
  reference: string,
  clientReference: string | null,
): PaymentRow | null {
  const { repo, transactions, now } = deps;
  const payment = (clientReference ? repo.byMerchantRef(environment, clientReference) : null) ?? repo.byReference(environment, reference);
  if (!payment || isFinal(payment.state)) return null;
  const tx = transactions.find(environment, reference, clientReference);
  if (!tx) return null;
  return repo.update(
    payment.id,
    {
      state: tx.status === 'SUCCESS' ? 'success' : 'failed',
      reference: tx.reference,
      fee: tx.fee,
      net: tx.net,
      completed_at: tx.completed_at,
      error_code: null,
      error_message: null,
    },
    now(),
    NOT_FINAL_STATES,
  );
}
