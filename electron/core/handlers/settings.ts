/** The owner's Settings screen: `settings:*` (the receipt's own settings are `receipt:saveSettings`, with printing). */
import type { Environment } from '../../../shared/domain.js';
import type { EnvironmentSetting, IpcResponse } from '../../../shared/ipc/contract.js';
import { isValidTimeZone } from '../../../shared/local-date.js';
import { BROWSER_MODE_NO_LIVE } from '../../../shared/shell.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { sendLinksTimeZone } from '../owner-links/index.js';
import { messageForServiceError, UNAUTHENTICATED_MESSAGE } from '../payments/index.js';
import { verifyPin } from '../people/index.js';
import { counterFromInput, missingSettings, toView, validateEnvironmentInput } from '../settings/index.js';
import type { CleanEnvironmentInput, EnvironmentConfig } from '../settings/index.js';

const MISSING_LABELS: Record<EnvironmentSetting, string> = {
  baseUrl: 'Service URL',
  merchantId: 'Merchant ID',
  publicKeyId: 'Public key id',
  secretKey: 'Secret key',
  relayUrl: 'Relay URL',
  relayToken: 'Relay token',
};

/** Names of the environment settings a save changes (never their values: the audit log names fields only). */
function changedFields(before: EnvironmentConfig, clean: CleanEnvironmentInput): string[] {
  const plain = (['baseUrl', 'merchantId', 'publicKeyId', 'relayUrl'] as const).filter((k) => before[k] !== clean[k]);
  const secrets = (['secretKey', 'relayToken'] as const).filter((k) => clean[k] && clean[k] !== before[k]);
  return [...plain, ...secrets];
}

/** What the Settings screen's channels use of the core. */
export type SettingsDeps = Pick<
  CoreContext,
  | 'settings'
  | 'signIn'
  | 'staff'
  | 'guard'
  | 'audit'
  | 'transactions'
  | 'client'
  | 'log'
  | 'configFor'
  | 'saveEnvironment'
  | 'setActive'
  | 'shell'
>;

export function settingsHandlers(ctx: SettingsDeps): HandlerMap<ChannelsOf<'settings'>> {
  const owner = () => ctx.signIn.current();

  /** The owner PIN typed again to confirm a switch of environment (counted by the lock-out like a sign-in). */
  const checkOwnerPin = async (pin: string): Promise<{ ok: true } | { ok: false; message: string }> => {
    const row = ctx.staff.owner();
    if (!row) return { ok: false, message: 'Set an owner PIN first.' };
    try {
      const checked = await ctx.guard.attempt(row.id, async () => ((await verifyPin(pin, row.pin_hash)) ? true : null));
      return checked.value
        ? { ok: true }
        : { ok: false, message: checked.lockedOut ? 'Too many wrong PINs: wait, then try again.' : 'That PIN is not right.' };
    } catch (error) {
      if (error instanceof CoreError) return { ok: false, message: error.message };
      throw error;
    }
  };

  return {
    'settings:get': async () => {
      const [test, live] = await Promise.all([ctx.configFor('test'), ctx.configFor('live')]);
      const s = ctx.settings.settings;
      return { active: s.active, tillName: s.tillName, timeZone: s.timeZone, test: toView(test), live: toView(live), receipt: s.receipt };
    },

    'settings:save': async ({ environment, values }) => {
      const clean = validateEnvironmentInput(environment, values);
      const changed = changedFields(await ctx.configFor(environment), clean);
      await ctx.saveEnvironment(environment, clean);
      if (changed.length > 0) ctx.audit.record(owner(), 'settings_changed', `${environment.toUpperCase()}: ${changed.join(', ')}`);
      return toView(await ctx.configFor(environment));
    },

    'settings:saveTill': async ({ tillName, timeZone, idleLockMinutes }) => {
      const name = tillName.trim();
      if (!name) throw new CoreError('SETTINGS_INVALID', 'Till name: enter a name such as "Front counter".', 'tillName');
      if (!isValidTimeZone(timeZone))
        throw new CoreError('SETTINGS_INVALID', `Time zone: "${timeZone}" is not a time zone (e.g. Africa/Accra).`, 'timeZone');
      const before = ctx.settings.settings;
      const changed = [
        name !== before.tillName ? 'tillName' : '',
        timeZone !== before.timeZone ? 'timeZone' : '',
        idleLockMinutes !== undefined && idleLockMinutes !== before.idleLockMinutes ? 'idleLockMinutes' : '',
      ].filter(Boolean);
      ctx.settings.update({ tillName: name, timeZone, ...(idleLockMinutes === undefined ? {} : { idleLockMinutes }) });
      if (changed.length > 0) ctx.audit.record(owner(), 'settings_changed', `till: ${changed.join(', ')}`);
      ctx.transactions.setTimeZone(timeZone);
      if (timeZone !== before.timeZone) void sendLinksTimeZone(ctx, timeZone); // phone links follow (best effort, never blocks)
      return { ok: true };
    },

    'settings:saveCounter': async (request) => {
      ctx.settings.update({ counter: counterFromInput(request) });
      return { ok: true };
    },

    'settings:testConnection': ({ environment }) => testConnection(ctx, environment),

    'settings:liveMissing': async () => ({ missing: missingSettings(await ctx.configFor('live')) }),

    'settings:setEnvironment': async ({ environment, pin }) => {
      // An impossible switch is refused before the PIN is asked for (nor counted by the lock-out).
      const refusal = environment === 'live' ? await liveRefusal(ctx) : null;
      if (refusal) return { ok: false, message: refusal };
      const checked = await checkOwnerPin(pin);
      if (!checked.ok) return checked;
      if (ctx.settings.settings.active !== environment)
        ctx.audit.record(owner(), 'environment', `switched to ${environment.toUpperCase()}`);
      ctx.setActive(environment);
      return { ok: true };
    },
  };
}

/** Why LIVE cannot be switched on (browser mode, or its settings incomplete), or null when it can. */
async function liveRefusal(ctx: Pick<CoreContext, 'shell' | 'configFor'>): Promise<string | null> {
  if (ctx.shell === 'browser') return BROWSER_MODE_NO_LIVE;
  const missing = missingSettings(await ctx.configFor('live'));
  if (missing.length === 0) return null;
  return `LIVE cannot be switched on: its settings are incomplete (missing ${missing.map((k) => MISSING_LABELS[k]).join(', ')}).`;
}

/** Asks the service to resolve a known number with these credentials: a name or "no such account" proves them. */
async function testConnection(
  ctx: Pick<CoreContext, 'configFor' | 'client' | 'log'>,
  environment: Environment,
): Promise<IpcResponse<'settings:testConnection'>> {
  const config = await ctx.configFor(environment);
  const missing = (['baseUrl', 'merchantId', 'secretKey'] as const).filter((k) => !config[k]);
  if (missing.length > 0) {
    return { result: 'error', message: `Fill in first: ${missing.map((k) => MISSING_LABELS[k]).join(', ')}.` };
  }
  const result = await ctx.client.resolve(
    { baseUrl: config.baseUrl, merchantId: config.merchantId, secretKey: config.secretKey as string },
    '233241234567',
    'MTN',
  );
  ctx.log.info('settings.test_connection', {
    environment,
    kind: result.kind,
    ...(result.kind === 'no-answer' ? { reason: result.reason } : { status: result.status }),
  });
  if (result.kind === 'answer' || (result.kind === 'error' && result.code === 'ACCOUNT_NOT_FOUND')) {
    return { result: 'ok', message: `Connected: the payment service accepted the ${environment.toUpperCase()} key and Merchant ID.` };
  }
  if (result.kind === 'no-answer') {
    return {
      result: 'unreachable',
      message: `The payment service at ${config.baseUrl} did not answer (${result.reason.replace('-', ' ')}). Check the Service URL and the internet connection.`,
    };
  }
  if (result.status === 401) return { result: 'unauthorized', message: UNAUTHENTICATED_MESSAGE.replace(' No money was taken.', '') };
  return { result: 'error', message: messageForServiceError(result.status, result.code, result.message) };
}
