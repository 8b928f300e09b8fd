/** What every screen shows about the till: `app:status`, read across settings, people and the relay link. */
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { counterView, isComplete } from '../settings/index.js';

/** What the status reads of the core. */
export type AppDeps = Pick<CoreContext, 'settings' | 'configFor' | 'signIn' | 'staff' | 'relayState' | 'version' | 'shell'>;

export function appHandlers(ctx: AppDeps): HandlerMap<ChannelsOf<'app'>> {
  return {
    'app:status': async () => {
      const s = ctx.settings.settings;
      const environment = s.active;
      const live = await ctx.configFor('live');
      const current = await ctx.configFor(environment);
      const caller = ctx.signIn.caller();
      const until = caller === 'owner' ? ctx.signIn.until() : null;
      return {
        environment,
        tillId: s.tillId,
        tillName: s.tillName,
        timeZone: s.timeZone,
        relayState: ctx.relayState(environment),
        pinSet: ctx.staff.owner() !== null,
        ownerUnlocked: caller === 'owner',
        liveReady: isComplete(live),
        version: ctx.version,
        shell: ctx.shell,
        embedded: current.embedded,
        ownerUnlockedUntil: until === null ? null : new Date(until).toISOString(),
        printing: { printer: s.receipt.printer, autoPrint: s.receipt.autoPrint },
        counter: counterView(s.counter),
        signedIn: ctx.signIn.current(),
        caller,
        staffMode: ctx.staff.hasStaff(),
        idleLockMinutes: s.idleLockMinutes,
      };
    },
  };
}
