/** Pure rules for late-result notices (no React): a notice belongs to the environment of its payment. */
import type { PaymentView, TillEnvironment } from '../../../shared/ipc/contract';

/**
 * The notices to show in an environment. A sandbox (TEST) result must never be on screen in LIVE,
 * where a cashier could hand over goods for it, nor a LIVE one in TEST: the others wait, kept, until
 * the till is back in their environment.
 */
export function noticesFor(notices: readonly PaymentView[], environment: TillEnvironment | undefined): PaymentView[] {
  if (!environment) return [];
  return notices.filter((p) => p.environment === environment);
}

/** Whether a late result is announced now (only in the environment it belongs to). */
export function announceLateResult(payment: PaymentView, environment: TillEnvironment | undefined): boolean {
  return environment !== undefined && payment.environment === environment;
}
