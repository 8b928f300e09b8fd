/** The Charge and Waiting screens' calls: `payments:*`, always in the active environment. */
import { isNetwork, NETWORK_REQUIRED_MESSAGE, type Environment } from '../../../shared/domain.js';
import type { IpcResponse } from '../../../shared/ipc/contract.js';
import { plainTextOrNull } from '../../../shared/outside-text.js';
import { normaliseMsisdn, PhoneError } from '../../../shared/phone.js';
import { resolveResponseSchema } from '../../../shared/wire/initialize.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { cashierScope, inScope, visiblePayment } from '../history/index.js';
import { AccountNames, messageForServiceError, SimilarPayments, toPaymentView, type SimilarFound } from '../payments/index.js';
import { CoreError } from '../errors.js';
import { formatAmount, MoneyError, parseAmount } from '../../../shared/money.js';
import type { SimilarPayment } from '../../../shared/ipc/contract.js';

/** What the Charge and Waiting screens' channels use of the core. */
export type PaymentsDeps = Pick<
  CoreContext,
  'db' | 'settings' | 'signIn' | 'shifts' | 'engine' | 'repo' | 'leftOpen' | 'client' | 'configFor' | 'now'
>;

/** `payments:settle` is with settling by hand (settle.ts). */
export function paymentHandlers(ctx: PaymentsDeps): HandlerMap<Exclude<ChannelsOf<'payments'>, 'payments:settle'>> {
  const active = () => ctx.settings.settings.active;
  const names = new AccountNames(ctx.now);
  const similar = new SimilarPayments(ctx.db);
  return {
    'payments:resolveAccount': ({ msisdn, network }) => resolveAccount(ctx, names, msisdn, network),

    // The wallet name stored is the one this core looked up for the number, never the
    // renderer's `customerName`, which is ignored: a name not looked up (or too long ago) is stored empty.
    'payments:charge': (request) => {
      const person = ctx.signIn.current();
      const startedBy = person ? { id: person.id, name: person.name, shiftId: ctx.shifts.openOf(person.id) } : null;
      const customerName = lookedUpName(names, active(), request.msisdn, request.network);
      return ctx.engine.charge(active(), { ...request, customerName }, startedBy);
    },

    // The whole shop's, whatever the caller's History shows: a second prompt charges twice whoever sent the first.
    'payments:similar': async ({ msisdn, amount }) => {
      const { number, pesewas } = similarQuestion(msisdn, amount);
      const found = similar.find(active(), number, pesewas, ctx.now());
      return { earlier: found ? similarView(found, ctx.settings.settings.tillName) : null };
    },

    // A cashier: only payments of their own open shift (history/cashier-scope.ts); any other is as an unknown id.
    'payments:get': async ({ id }) => {
      const row = visiblePayment(ctx, id);
      return row ? toPaymentView(row) : null;
    },

    'payments:stopWaiting': async ({ id, send }) =>
      visiblePayment(ctx, id) ? ctx.engine.stopWaiting(id, ctx.signIn.current()?.name ?? null, send ?? 'keep') : null,

    // Refused at the lock (the role table): the screens ask once someone has signed in, and only for what they may see.
    'payments:pending': async () => {
      const scope = cashierScope(ctx);
      return {
        items: ctx.repo
          .open(active())
          .filter((row) => inScope(scope, row))
          .map(toPaymentView),
        leftOpen: ctx.leftOpen
          .changed()
          .filter((row) => inScope(scope, row))
          .map(toPaymentView),
      };
    },
  };
}

function similarQuestion(msisdn: string, amount: string): { number: string; pesewas: number } {
  try {
    return { number: normaliseMsisdn(msisdn).msisdn, pesewas: parseAmount(amount) };
  } catch (error) {
    if (error instanceof PhoneError) throw new CoreError('INVALID_REQUEST', error.message, 'msisdn');
    if (error instanceof MoneyError) throw new CoreError('INVALID_REQUEST', error.message, 'amount');
    throw error;
  }
}

/** Only what the question needs: no reference, fee or description of a payment the caller may not see in History. */
function similarView(found: SimilarFound, ownTillName: string): SimilarPayment {
  return {
    state: found.state,
    amount: formatAmount(found.amount),
    msisdn: found.msisdn,
    at: new Date(found.at).toISOString(),
    startedBy: found.startedBy,
    tillName: found.thisTill ? ownTillName.trim() || null : found.tillName,
    thisTill: found.thisTill,
  };
}

function lookedUpName(names: AccountNames, environment: Environment, msisdn: string, network: string): string | null {
  try {
    return names.nameFor(environment, normaliseMsisdn(msisdn).msisdn, network);
  } catch (error) {
    if (error instanceof PhoneError) return null; // the charge itself refuses the number
    throw error;
  }
}

/** The customer's name from the service, for the cashier to confirm; never a reason not to charge. */
async function resolveAccount(
  ctx: Pick<CoreContext, 'settings' | 'configFor' | 'client'>,
  names: AccountNames,
  msisdn: string,
  network: string,
): Promise<IpcResponse<'payments:resolveAccount'>> {
  let normalised: string;
  try {
    normalised = normaliseMsisdn(msisdn).msisdn;
  } catch (error) {
    if (error instanceof PhoneError) return { name: null, message: error.message };
    throw error;
  }
  if (!isNetwork(network)) return { name: null, message: NETWORK_REQUIRED_MESSAGE };
  const environment = ctx.settings.settings.active;
  const config = await ctx.configFor(environment);
  if (!config.baseUrl || !config.merchantId || !config.secretKey)
    return { name: null, message: 'The till is not set up to look up names yet.' };
  const result = await ctx.client.resolve(
    { baseUrl: config.baseUrl, merchantId: config.merchantId, secretKey: config.secretKey },
    normalised,
    network,
  );
  if (result.kind === 'answer') {
    const parsed = resolveResponseSchema.safeParse(result.json);
    const name = parsed.success ? plainTextOrNull(parsed.data.data.name) : null;
    names.remember(environment, normalised, network, name);
    return { name };
  }
  names.remember(environment, normalised, network, null);
  if (result.kind === 'error') {
    const message = messageForServiceError(result.status, result.code, result.message);
    return result.code === 'ACCOUNT_NOT_FOUND' ? { name: null, message, noAccount: true } : { name: null, message };
  }
  return { name: null, message: 'The name could not be checked (the payment service did not answer). You can still charge.' };
}
