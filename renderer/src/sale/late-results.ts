/** Pure rules for late-result notices (no React): a notice belongs to the environment of its payment. */
import type { PaymentView } from '../../../shared/ipc/contract';
import type { Environment } from '../../../shared/domain';

/**
 * The notices to show in an environment. A sandbox (TEST) result must never be on screen in LIVE,
 * where a cashier could hand over goods for it, nor a LIVE one in TEST: the others wait, kept, until
 * the till is back in their environment.
 */
export function noticesFor<T extends Pick<PaymentView, 'environment'>>(notices: readonly T[], environment: Environment | undefined): T[] {
  if (!environment) return [];
  return notices.filter((p) => p.environment === environment);
}

/** Whether a late result is announced now (only in the environment it belongs to). */
export function announceLateResult(payment: PaymentView, environment: Environment | undefined): boolean {
  return environment !== undefined && payment.environment === environment;
}

/** A late notice: the payment, and whether it was open when the till last stopped (a restart mid-sale). */
export type LateNotice = PaymentView & { leftOpen?: boolean };

/**
 * Who a late result concerns, for whoever is at the till when it comes (a manager, the owner, a colleague):
 * who started the payment and who stopped waiting, by name. "you" only on a till without staff, where the one
 * person at it is the one who stopped waiting. A payment the till had open when it stopped says so first:
 * nobody stopped waiting for it, the till did.
 */
export function lateNoticeWho(payment: Pick<LateNotice, 'startedBy' | 'stoppedBy' | 'leftOpen'>): string {
  const names = namesOf(payment);
  if (payment.leftOpen) return names ? `open when the till stopped; ${names}` : 'open when the till stopped';
  return names ?? 'you stopped waiting';
}

function namesOf({ startedBy, stoppedBy }: Pick<PaymentView, 'startedBy' | 'stoppedBy'>): string | null {
  if (!stoppedBy) return startedBy ? `started by ${startedBy}` : null;
  if (!startedBy) return `${stoppedBy} stopped waiting`;
  return startedBy === stoppedBy ? `started by ${startedBy}, who stopped waiting` : `started by ${startedBy}; ${stoppedBy} stopped waiting`;
}

/**
 * The notice's first words: the result, or for a payment whose sending ended at its deadline while nobody
 * was there, what the till knows of it (as the Waiting screen says it).
 */
export function lateNoticeTitle(payment: Pick<PaymentView, 'state'>): string {
  switch (payment.state) {
    case 'success':
      return 'PAID';
    case 'not_sent':
      return 'NOT SENT (no prompt went out)';
    case 'unconfirmed':
      return 'NO ANSWER (it may have reached the payment service: a result will show here)';
    default:
      return 'NOT PAID';
  }
}
