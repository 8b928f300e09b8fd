/**
 * A payment the service has not acknowledged is sent only until its deadline, stored with it at Enter
 * (`send_until`), so a restart hours later, or a changed setting, never sends it again. The default is one
 * minute: about as long as a customer stands at the counter for a mobile-money payment, with the time to
 * approve the prompt still to come after the last send (the service's own prompt timeout is not given by the spec).
 */
import { RESENDABLE_STATES, type PaymentState } from '../../../shared/domain.js';
import type { EngineDeps } from './payment-engine-deps.js';
import type { PaymentRow } from './payments-repo.js';
import type { ServiceResult } from './service-client.js';
import { NOT_SENT_MESSAGE, UNCONFIRMED_MESSAGE } from './error-messages.js';

export const DEFAULT_SEND_DEADLINE_MS = 60_000;

/** The state a payment ends in when sending stops, and what the cashier reads about it. */
export function unsentEnd(mayHaveReached: boolean): { state: Extract<PaymentState, 'not_sent' | 'unconfirmed'>; message: string } {
  return mayHaveReached ? { state: 'unconfirmed', message: UNCONFIRMED_MESSAGE } : { state: 'not_sent', message: NOT_SENT_MESSAGE };
}

/**
 * Whether this attempt may have reached the service. Only a connection never made (refused, or not made in
 * time) proves it did not; any answer, a time-out waiting for one or a broken connection may have.
 */
export function attemptMayHaveReached(result: ServiceResult): boolean {
  return !(result.kind === 'no-answer' && (result.reason === 'refused' || result.reason === 'connect-timeout'));
}

type Deps = Pick<EngineDeps, 'repo' | 'now' | 'log'>;

/**
 * The payment ends not_sent or unconfirmed (null: it had left the states it is sent in meanwhile). An attempt
 * still out counts as one that may have reached the service; its answer still lands on it.
 */
export function endSending(
  deps: Deps,
  row: PaymentRow,
  why: 'deadline' | 'stopped',
  by: { name: string | null } | null,
): PaymentRow | null {
  const end = unsentEnd(row.may_have_reached === 1 || row.state === 'submitting');
  const updated = deps.repo.update(
    row.id,
    {
      state: end.state,
      error_message: end.message,
      may_have_reached: end.state === 'unconfirmed' ? 1 : 0,
      ...(by ? { stopped_waiting: 1, stopped_by_name: by.name } : {}),
    },
    deps.now(),
    RESENDABLE_STATES,
  );
  if (updated) deps.log.info('payment.send_ended', { id: row.id, state: updated.state, why, attempts: updated.attempts });
  return updated;
}

/**
 * An attempt came back without an acknowledgement. If the cashier said stop while it was out (the payment is
 * unconfirmed already), it stays so if the attempt may have reached the service and becomes not_sent if the
 * attempt proved it did not; `stopped` then tells the engine not to retry.
 */
export function stoppedDuringAttempt(deps: Deps, id: string, mayHaveReached: boolean): { stopped: boolean; updated: PaymentRow | null } {
  const row = deps.repo.get(id);
  if (row?.state !== 'unconfirmed') return { stopped: false, updated: null };
  if (mayHaveReached) return { stopped: true, updated: null };
  const end = unsentEnd(false);
  const updated = deps.repo.update(id, { state: end.state, error_message: end.message, may_have_reached: 0 }, deps.now(), ['unconfirmed']);
  return { stopped: true, updated };
}
