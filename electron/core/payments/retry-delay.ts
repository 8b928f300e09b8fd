/** How long the engine waits before its next look at a payment it has not got through to the service. */
import type { PaymentRow } from './payments-repo.js';

/** The longest wait before re-sending an uncertain payment, whatever Retry-After says. */
export const MAX_RETRY_DELAY_MS = 10 * 60_000;
/** Longest wait between two reads of missing credentials (each read may make the OS ask to unlock the keychain). */
export const MAX_CREDENTIALS_WAIT_MS = 60_000;

/**
 * The next retry: the attempt's delay from the list (the last repeats) or `delayMs`, at least the service's
 * Retry-After, at most MAX_RETRY_DELAY_MS, and never past the payment's deadline: the last look is at the
 * deadline itself, so the payment ends in its named state then and the screen shows it at once.
 */
export function retryDelay(
  row: Pick<PaymentRow, 'attempts' | 'send_until'>,
  delays: readonly number[],
  options: { retryAfterMs?: number | null; delayMs?: number },
  now: number,
): number {
  const base = options.delayMs ?? delays[Math.min(Math.max(row.attempts - 1, 0), delays.length - 1)] ?? 1000;
  // A service's Retry-After is honoured up to a bound: a huge value would overflow setTimeout (Node
  // then fires after 1 ms, a tight retry loop against a service asking us to back off).
  return Math.max(0, Math.min(Math.max(base, options.retryAfterMs ?? 0), MAX_RETRY_DELAY_MS, row.send_until - now));
}

/** The wait before the `waits`-th look for missing credentials: doubling from the first retry delay. */
export function credentialsWait(delays: readonly number[], waits: number): number {
  const first = delays[0] ?? 1000;
  return Math.min(first * 2 ** Math.min(waits - 1, 20), MAX_CREDENTIALS_WAIT_MS);
}
