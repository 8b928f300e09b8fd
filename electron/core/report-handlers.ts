/** History and takings: `history:*` and `takings:*`, in the active environment. */
import type { CoreContext } from './core-context.js';
import type { ChannelsOf, HandlerMap } from './dispatcher.js';

/**
 * A cashier sees only the payments of their own open shift (issue 12's roles); with no open shift, none
 * (an empty id matches no payment). A manager, the owner and the one-person shop see every payment.
 */
function historyScope(ctx: CoreContext): { shiftId: string | null } {
  const person = ctx.signIn.current();
  if (person?.role !== 'cashier') return { shiftId: null };
  return { shiftId: ctx.shifts.openOf(person.id) ?? '' };
}

export function reportHandlers(ctx: CoreContext): HandlerMap<ChannelsOf<'history' | 'takings'>> {
  const active = () => ctx.settings.settings.active;
  return {
    'history:search': async (request) => ctx.history.search(active(), request, ctx.settings.settings.timeZone, historyScope(ctx)),
    'takings:report': async ({ from, to }) => ctx.takings.report(active(), from, to, ctx.settings.settings.timeZone),
    'takings:exportCsv': async ({ from, to }) => ctx.takings.exportCsv(active(), from, to),
  };
}
