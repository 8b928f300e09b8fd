/** The owner's alerts: `alerts:*`, the owner only; acknowledging one is audited the first time. */
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';

/** What the alerts' channels use of the core. */
export type AlertsDeps = Pick<CoreContext, 'alerts' | 'signIn' | 'audit'>;

export function alertsHandlers(ctx: AlertsDeps): HandlerMap<ChannelsOf<'alerts'>> {
  return {
    'alerts:list': async ({ all }) => ({ items: ctx.alerts.list(all === true) }),
    'alerts:acknowledge': async ({ id }) => {
      const person = ctx.signIn.current();
      if (!person) throw new CoreError('FORBIDDEN', 'Sign in first.');
      const { alert, first } = ctx.alerts.acknowledge(id, person);
      if (first) ctx.audit.record(person, 'alert_acknowledged', `alert ${id}: ${alert.message}`);
      return alert;
    },
  };
}
