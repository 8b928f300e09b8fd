/** Takings: `takings:*`, in the active environment. */
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';

/** What the takings' channels use of the core. */
export type TakingsDeps = Pick<CoreContext, 'takings' | 'settings'>;

export function takingsHandlers(ctx: TakingsDeps): HandlerMap<ChannelsOf<'takings'>> {
  const active = () => ctx.settings.settings.active;
  return {
    'takings:report': async ({ from, to, cashierId }) => ctx.takings.report(active(), from, to, ctx.settings.settings.timeZone, cashierId),
    'takings:exportCsv': async ({ from, to, cashierId }) =>
      ctx.takings.exportCsv(active(), from, to, cashierId, ctx.settings.settings.timeZone),
  };
}
