/**
 * When a payment without a result is overdue. The prompt (60 s in the simulator, unknown for the real
 * service) plus the whole webhook schedule (635 s of offsets and up to 8 × 15 s time-outs = 755 s) is
 * under 14 minutes, so after 15 its webhook most likely failed every attempt. A result can still arrive
 * later (a delivery replayed by hand from the service's dashboard).
 */
import { isOpen, type PaymentState } from './domain.js';

export const OVERDUE_AFTER_MS = 15 * 60_000;

/**
 * Still waiting for the service's result: open, or unconfirmed (the till stopped sending it, but an attempt
 * may have reached the service, whose result lands if it did). A not_sent payment waits for nothing.
 */
export function awaitsResult(state: PaymentState): boolean {
  return isOpen(state) || state === 'unconfirmed';
}

export function isOverdue(state: PaymentState, createdAtMs: number, nowMs: number): boolean {
  return awaitsResult(state) && nowMs - createdAtMs > OVERDUE_AFTER_MS;
}
