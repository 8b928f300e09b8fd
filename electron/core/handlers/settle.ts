/** Settling by hand a payment whose result never came: `payments:settle`, managers and the owner. */
import type { CoreContext } from '../core-context.js';
import type { HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { toPaymentView } from '../payments/index.js';
import { settleByHand } from '../settle/index.js';

/** What settling uses of the core: the stores it writes in one transaction, the audit log, the screens to tell. */
export type SettleHandlerDeps = Pick<
  CoreContext,
  'db' | 'repo' | 'transactions' | 'audit' | 'now' | 'settings' | 'signIn' | 'log' | 'emitPayment'
>;

export function settleHandlers(ctx: SettleHandlerDeps): HandlerMap<'payments:settle'> {
  const me = () => {
    const person = ctx.signIn.current();
    if (!person) throw new CoreError('FORBIDDEN', 'Sign in first.');
    return person;
  };
  return {
    'payments:settle': async (request) => {
      const { db, repo, transactions, audit, now } = ctx;
      const deps = { db, repo, transactions, audit, now, tillId: () => ctx.settings.settings.tillId };
      const { answer, settled } = settleByHand(deps, ctx.settings.settings.active, request, me());
      if (settled) {
        ctx.log.info('payment.settled_by_hand', { id: settled.id, outcome: settled.hand_outcome, state: settled.state });
        ctx.emitPayment(toPaymentView(settled));
      }
      return answer;
    },
  };
}
