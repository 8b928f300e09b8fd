/** History and takings: `history:*` and `takings:*`, in the active environment. */
import type { CoreContext } from './core-context.js';
import type { ChannelsOf, HandlerMap } from './dispatcher.js';
import { cashierScope } from './cashier-scope.js';

export function reportHandlers(ctx: CoreContext): HandlerMap<ChannelsOf<'history' | 'takings'>> {
  const active = () => ctx.settings.settings.active;
  return {
    'history:search': async (request) => ctx.history.search(active(), request, ctx.settings.settings.timeZone, cashierScope(ctx)),
    'takings:report': async ({ from, to, cashierId }) => ctx.takings.report(active(), from, to, ctx.settings.settings.timeZone, cashierId),
    'takings:exportCsv': async ({ from, to, cashierId }) => ctx.takings.exportCsv(active(), from, to, cashierId),
  };
}
