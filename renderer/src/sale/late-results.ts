/** Pure rules for late-result notices (no React): a notice belongs to the environment of its payment. */
import type { PaymentView } from '../../../shared/ipc/contract';
import type { Environment } from '../../../shared/domain';

/**
 * The notices to show in an environment. A sandbox (TEST) result must never be on screen in LIVE,
 * where a cashier could hand over goods for it, nor a LIVE one in TEST: the others wait, kept, until
 * the till is back in their environment.
 */
export function noticesFor(notices: readonly PaymentView[], environment: Environment | undefined): PaymentView[] {
  if (!environment) return [];
  return notices.filter((p) => p.environment === environment);
}

/** Whether a late result is announced now (only in the environment it belongs to). */
export function announceLateResult(payment: PaymentView, environment: Environment | undefined): boolean {
  return environment !== undefined && payment.environment === environment;
}

/**
 * Who a late result concerns, for whoever is at the till when it comes (a manager, the owner, a colleague):
 * who started the payment and who stopped waiting, by name. "you" only on a till without staff, where the one
 * person at it is the one who stopped waiting.
 */
export function lateNoticeWho(payment: Pick<PaymentView, 'startedBy' | 'stoppedBy'>): string {
  const { startedBy, stoppedBy } = payment;
  if (!stoppedBy) return startedBy ? `started by ${startedBy}` : 'you stopped waiting';
  if (!startedBy) return `${stoppedBy} stopped waiting`;
  return startedBy === stoppedBy ? `started by ${startedBy}, who stopped waiting` : `started by ${startedBy}; ${stoppedBy} stopped waiting`;
}
