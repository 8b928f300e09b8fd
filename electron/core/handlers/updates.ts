/** `updates:*`: the version and update state the owner sees, and the owner's "restart to update". */
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';

export function updatesHandlers(ctx: Pick<CoreContext, 'updates'>): HandlerMap<ChannelsOf<'updates'>> {
  return {
    'updates:status': async () => ctx.updates.status(),
    'updates:restart': async () => ctx.updates.restart(),
  };
}
