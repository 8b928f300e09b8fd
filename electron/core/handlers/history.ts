/** History: `history:*`, in the active environment and within the caller's scope. */
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { cashierScope } from '../history/index.js';

/** What the search uses of the core. */
export type HistoryDeps = Pick<CoreContext, 'history' | 'settings' | 'signIn' | 'shifts'>;

export function historyHandlers(ctx: HistoryDeps): HandlerMap<ChannelsOf<'history'>> {
  return {
    'history:search': async (request) =>
      ctx.history.search(ctx.settings.settings.active, request, ctx.settings.settings.timeZone, cashierScope(ctx)),
  };
}
