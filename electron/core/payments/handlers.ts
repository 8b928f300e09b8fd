/** The Charge and Waiting screens' calls: `payments:*`, always in the active environment. */
import { isNetwork, NETWORK_REQUIRED_MESSAGE } from '../../../shared/domain.js';
import type { IpcResponse } from '../../../shared/ipc/contract.js';
import { normaliseMsisdn, PhoneError } from '../../../shared/phone.js';
import { resolveResponseSchema } from '../../../shared/wire/initialize.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { messageForServiceError } from './error-messages.js';
import { toPaymentView } from './payments-repo.js';
import { cashierScope, inScope, visiblePayment } from '../history/index.js';

/** `payments:settle` is in settle-handlers.ts. */
export function paymentHandlers(ctx: CoreContext): HandlerMap<Exclude<ChannelsOf<'payments'>, 'payments:settle'>> {
  const active = () => ctx.settings.settings.active;
  return {
    'payments:resolveAccount': ({ msisdn, network }) => resolveAccount(ctx, msisdn, network),

    'payments:charge': (request) => {
      const person = ctx.signIn.current();
      const startedBy = person ? { id: person.id, name: person.name, shiftId: ctx.shifts.openOf(person.id) } : null;
      return ctx.engine.charge(active(), request, startedBy);
    },

    // A cashier: only payments of their own open shift (cashier-scope.ts); any other is as an unknown id.
    'payments:get': async ({ id }) => {
      const row = visiblePayment(ctx, id);
      return row ? toPaymentView(row) : null;
    },

    'payments:stopWaiting': async ({ id }) => (visiblePayment(ctx, id) ? ctx.engine.stopWaiting(id) : null),

    'payments:pending': async () => {
      const scope = cashierScope(ctx);
      return {
        items: ctx.repo
          .open(active())
          .filter((row) => inScope(scope, row))
          .map(toPaymentView),
      };
    },
  };
}

/** The customer's name from the service, for the cashier to confirm; never a reason not to charge. */
async function resolveAccount(ctx: CoreContext, msisdn: string, network: string): Promise<IpcResponse<'payments:resolveAccount'>> {
  let normalised: string;
  try {
    normalised = normaliseMsisdn(msisdn).msisdn;
  } catch (error) {
    if (error instanceof PhoneError) return { name: null, message: error.message };
    throw error;
  }
  if (!isNetwork(network)) return { name: null, message: NETWORK_REQUIRED_MESSAGE };
  const config = await ctx.configFor(ctx.settings.settings.active);
  if (!config.baseUrl || !config.merchantId || !config.secretKey)
    return { name: null, message: 'The till is not set up to look up names yet.' };
  const result = await ctx.client.resolve(
    { baseUrl: config.baseUrl, merchantId: config.merchantId, secretKey: config.secretKey },
    normalised,
    network,
  );
  if (result.kind === 'answer') {
    const parsed = resolveResponseSchema.safeParse(result.json);
    return parsed.success ? { name: parsed.data.data.name } : { name: null };
  }
  if (result.kind === 'error') {
    const message = messageForServiceError(result.status, result.code, result.message);
    return result.code === 'ACCOUNT_NOT_FOUND' ? { name: null, message, noAccount: true } : { name: null, message };
  }
  return { name: null, message: 'The name could not be checked (the payment service did not answer). You can still charge.' };
}
