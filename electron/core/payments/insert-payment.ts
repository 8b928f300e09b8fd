/** Storing a new payment once, before its first request (the engine's charge). */
import { plainTextOrNull } from '../../../shared/outside-text.js';
import type { Environment } from '../../../shared/domain.js';
import type { ChargeInput, CheckedCharge } from './charge-request.js';
import type { EngineDeps, StartedBy } from './payment-engine-deps.js';
import type { PaymentRow } from './payments-repo.js';
import { DEFAULT_SEND_DEADLINE_MS } from './send-deadline.js';

/**
 * Stores the payment before its first request, in one immediate transaction: the same requestId (a second
 * click or window) finds the payment already there, and one till sends one payment at a time per environment.
 */
export function insertOnce(
  deps: Pick<EngineDeps, 'repo' | 'db' | 'now' | 'sendDeadlineMs'>,
  environment: Environment,
  input: ChargeInput,
  charge: CheckedCharge,
  made: { id: string; merchantRef: string; tillId: string; body: string; by: StartedBy | null },
): PaymentRow | { busy: PaymentRow } {
  const { repo, db, now } = deps;
  return db
    .transaction((): PaymentRow | { busy: PaymentRow } => {
      const again = repo.byRequestId(input.requestId);
      if (again) return again;
      const busy = repo.busy(made.tillId, environment);
      if (busy) return { busy };
      const at = now();
      repo.insert({
        id: made.id,
        request_id: input.requestId,
        merchant_ref: made.merchantRef,
        environment,
        state: 'created',
        amount: charge.pesewas,
        msisdn: charge.msisdn,
        msisdn_rev: [...charge.msisdn].reverse().join(''),
        network: charge.network,
        customer_name: plainTextOrNull(input.customerName),
        description: charge.description,
        request_body: made.body,
        till_id: made.tillId,
        staff_id: made.by?.id ?? null,
        staff_name: made.by?.name ?? null,
        shift_id: made.by?.shiftId ?? null,
        created_at: at,
        updated_at: at,
        send_until: at + (deps.sendDeadlineMs ?? DEFAULT_SEND_DEADLINE_MS),
      });
      return repo.get(made.id) as PaymentRow;
    })
    .immediate();
}
