/**
 * What a cashier may see of this till's payments (issue 12's roles): only those they started in their
 * own open shift. A manager, the owner and the one-person shop (nobody signed in) see every payment.
 * The core applies it on every channel that reads payments (history, payments:get/pending/stopWaiting,
 * receipts, shifts:print), and answers for any other payment as for an unknown id.
 */
import type { CoreContext } from './core-context.js';
import type { PaymentRow } from './payments-repo.js';

/** Only the payments started in this shift; null for every payment; '' (matches none) for a cashier with no open shift. */
export type ShiftScope = { shiftId: string | null };

export function cashierScope(ctx: Pick<CoreContext, 'signIn' | 'shifts'>): ShiftScope {
  const person = ctx.signIn.current();
  if (person?.role !== 'cashier') return { shiftId: null };
  return { shiftId: ctx.shifts.openOf(person.id) ?? '' };
}

/** The payment, in the active environment and within the caller's scope, or null as for an unknown id. */
export function visiblePayment(ctx: Pick<CoreContext, 'signIn' | 'shifts' | 'repo' | 'settings'>, id: string): PaymentRow | null {
  const row = ctx.repo.get(id);
  if (!row || row.environment !== ctx.settings.settings.active) return null;
  return inScope(cashierScope(ctx), row) ? row : null;
}

export function inScope(scope: ShiftScope, row: Pick<PaymentRow, 'shift_id'>): boolean {
  return scope.shiftId === null || (scope.shiftId !== '' && row.shift_id === scope.shiftId);
}
