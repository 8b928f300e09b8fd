/**
 * What a cashier may see of this till's payments (shared/ipc/roles.ts): only those they started in their
 * own open shift. A manager, the owner and the one-person shop (nobody signed in) see every payment.
 * The core applies it on every channel that reads payments (history, payments:get/pending/stopWaiting,
 * receipts, shifts:print), and answers for any other payment as for an unknown id.
 */
import type { Environment } from '../../../shared/domain.js';
import type { PaymentRow, PaymentsRepo } from '../payments/index.js';
import type { Person } from '../people/index.js';

/** Who is signed in and their open shift: what the scope reads (the core's sign-in and shifts). */
export type ScopeDeps = { signIn: { current(): Person | null }; shifts: { openOf(staffId: string): string | null } };

/** Only the payments started in this shift; null for every payment; '' (matches none) for a cashier with no open shift. */
export type ShiftScope = { shiftId: string | null };

export function cashierScope(ctx: ScopeDeps): ShiftScope {
  const person = ctx.signIn.current();
  if (person?.role !== 'cashier') return { shiftId: null };
  return { shiftId: ctx.shifts.openOf(person.id) ?? '' };
}

/** The payment, in the active environment and within the caller's scope, or null as for an unknown id. */
export function visiblePayment(
  ctx: ScopeDeps & { repo: Pick<PaymentsRepo, 'get'>; settings: { settings: { active: Environment } } },
  id: string,
): PaymentRow | null {
  const row = ctx.repo.get(id);
  if (!row || row.environment !== ctx.settings.settings.active) return null;
  return inScope(cashierScope(ctx), row) ? row : null;
}

export function inScope(scope: ShiftScope, row: Pick<PaymentRow, 'shift_id'>): boolean {
  return scope.shiftId === null || (scope.shiftId !== '' && row.shift_id === scope.shiftId);
}
