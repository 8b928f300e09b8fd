/** Handlers for settling a payment by hand (`payments:settle`, managers and the owner) and the owner's alerts (`alerts:*`). */
import type { IpcContract, IpcResponse } from '../../../shared/ipc/contract.js';
import type { z } from 'zod';
import type { CoreContext } from '../core-context.js';
import { CoreError } from '../errors.js';
import { toPaymentView } from '../payments/index.js';
import { settleByHand } from './settle-by-hand.js';

type SettleChannel = 'payments:settle' | 'alerts:list' | 'alerts:acknowledge';
type Handlers = { [C in SettleChannel]: (request: z.output<IpcContract[C]['request']>) => Promise<IpcResponse<C>> };

export function settleHandlers(ctx: CoreContext): Handlers {
  const me = () => {
    const person = ctx.signIn.current();
    if (!person) throw new CoreError('FORBIDDEN', 'Sign in first.');
    return person;
  };
  return {
    'payments:settle': async (request) => {
      const deps = { ...ctx, tillId: () => ctx.settings.settings.tillId };
      const { answer, settled } = settleByHand(deps, ctx.settings.settings.active, request, me());
      if (settled) {
        ctx.log.info('payment.settled_by_hand', { id: settled.id, outcome: settled.hand_outcome, state: settled.state });
        ctx.emitPayment(toPaymentView(settled));
      }
      return answer;
    },
    'alerts:list': async ({ all }) => ({ items: ctx.alerts.list(all === true) }),
    'alerts:acknowledge': async ({ id }) => {
      const person = me();
      const { alert, first } = ctx.alerts.acknowledge(id, person);
      if (first) ctx.audit.record(person, 'alert_acknowledged', `alert ${id}: ${alert.message}`);
      return alert;
    },
  };
}
