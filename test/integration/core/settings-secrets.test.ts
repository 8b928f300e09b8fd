/**
 * Settings with the real OS keychain (scripts/with-keyring.sh): the secret key and the relay token
 * are in the keychain only, never in the data folder or a log line; validation names the field;
 * the owner PIN guards settings and LIVE; LIVE is refused while incomplete; test connection says
 * ok / 401 / unreachable; a revoked key gives the cashier the 401 message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKeychainStore, keychainServiceName } from '../../../electron/core/index.js';
import { UNAUTHENTICATED_MESSAGE } from '../../../electron/core/error-messages.js';
import {
  allFiles,
  configureTest,
  msisdnEnding,
  openCore,
  PIN,
  removeDir,
  requestId,
  sandboxPost,
  startServices,
  tempDir,
  waitForState,
  type LoggedCore,
  type Services,
} from './helpers.js';

let root: string;
let services: Services;
let core: LoggedCore;
let dataDir: string;

beforeAll(async () => {
  root = tempDir('till-settings');
  services = await startServices(root);
  dataDir = join(root, 'till');
  core = await openCore(dataDir);
});

afterAll(async () => {
  await core?.close();
  await services?.close();
  removeDir(root);
});

const liveValues = () => ({
  baseUrl: services.sandbox.baseUrl, // loopback: http allowed even in LIVE
  merchantId: services.sandbox.merchantId,
  publicKeyId: services.sandbox.keys.live.publicId,
  secretKey: services.sandbox.keys.live.secret,
  relayUrl: services.relay.url,
  relayToken: services.token,
});

describe('owner PIN and settings', () => {
  it('settings cannot be saved before a PIN exists or while the owner is locked out', async () => {
    await expect(core.invoke('settings:save', { environment: 'test', values: liveValues() })).rejects.toEqual({
      code: 'PIN_NOT_SET',
      message: expect.any(String),
    });
    await core.invoke('owner:setPin', { pin: PIN });
    await core.invoke('owner:lock', {});
    await expect(core.invoke('settings:save', { environment: 'test', values: liveValues() })).rejects.toMatchObject({
      code: 'OWNER_LOCKED',
    });
    await expect(core.invoke('takings:report', { from: '2026-01-01', to: '2026-01-02' })).rejects.toMatchObject({ code: 'OWNER_LOCKED' });
    expect(await core.invoke('owner:unlock', { pin: '0000' })).toEqual({ ok: false, message: 'That PIN is not right.' });
    expect(await core.invoke('owner:unlock', { pin: PIN })).toEqual({ ok: true });
    expect((await core.invoke('app:status', {})).ownerUnlocked).toBe(true);
  });

  it('rejects bad values with a message naming the field, and saves nothing', async () => {
    const bad = async (environment: 'test' | 'live', patch: Record<string, string>, field: string, message: RegExp) => {
      const values = {
        ...liveValues(),
        ...(environment === 'test'
          ? { publicKeyId: services.sandbox.keys.test.publicId, secretKey: services.sandbox.keys.test.secret }
          : {}),
        ...patch,
      };
      await expect(core.invoke('settings:save', { environment, values })).rejects.toEqual({
        code: 'SETTINGS_INVALID',
        field,
        message: expect.stringMatching(message),
      });
    };
    await bad('test', { secretKey: services.sandbox.keys.live.secret }, 'secretKey', /LIVE secret key; TEST needs one starting sk_test_/);
    await bad('live', { secretKey: services.sandbox.keys.test.secret }, 'secretKey', /TEST secret key; LIVE needs one starting sk_live_/);
    await bad('test', { merchantId: 'MCH_short' }, 'merchantId', /MCH_ followed by 12/);
    await bad('test', { baseUrl: 'ftp://pay.example.com' }, 'baseUrl', /https:\/\//);
    await bad('live', { baseUrl: 'http://pay.example.com' }, 'baseUrl', /must use https:\/\/ in LIVE/);
    await bad('live', { relayUrl: 'http://relay.example.com' }, 'relayUrl', /must use https:\/\/ in LIVE/);
    await bad('test', { relayToken: 'not-a-token' }, 'relayToken', /rt_ followed by 43/);
    const view = await core.invoke('settings:get', {});
    expect(view.test.secretKeyMasked).toBeNull();
    expect(view.live.baseUrl).toBe('');
  });

  it('saves settings with the secret and the relay token in the keychain only, and reads them back masked', async () => {
    await configureTest(core, services);
    const view = await core.invoke('settings:get', {});
    const secret = services.sandbox.keys.test.secret;
    expect(view.test).toMatchObject({
      baseUrl: services.sandbox.baseUrl,
      merchantId: services.sandbox.merchantId,
      secretKeyMasked: `sk_test_••••${secret.slice(-4)}`,
      relayTokenSet: true,
      callbackUrl: `${services.relay.url}/v1/webhooks`,
      complete: true,
      embedded: false,
    });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(JSON.stringify(view)).not.toContain(services.token);
    const keychain = createKeychainStore(keychainServiceName(dataDir));
    expect(await keychain.get('test.secret-key')).toBe(secret);
    expect(await keychain.get('test.relay-token')).toBe(services.token);
    // Saving again without a secret keeps the stored one.
    await core.invoke('settings:save', {
      environment: 'test',
      values: {
        baseUrl: services.sandbox.baseUrl,
        merchantId: services.sandbox.merchantId,
        publicKeyId: services.sandbox.keys.test.publicId,
        relayUrl: services.relay.url,
      },
    });
    expect(await keychain.get('test.secret-key')).toBe(secret);
    // A fresh start reads the same settings back.
    await core.close();
    core = await openCore(dataDir);
    expect((await core.invoke('settings:get', {})).test).toEqual(view.test);
  });

  it('test connection: ok, unreachable, then 401 for a revoked key (and the cashier gets the 401 message)', async () => {
    await core.invoke('owner:unlock', { pin: PIN });
    expect(await core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'ok' });

    const created = await sandboxPost(services, `merchants/${services.sandbox.merchantId}/keys`, { environment: 'test' });
    await configureTest(core, services, created.secret as string);
    expect(await core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'ok' });
    await sandboxPost(services, `keys/${created.publicId as string}/revoke`);
    const tested = await core.invoke('settings:testConnection', { environment: 'test' });
    expect(tested.result).toBe('unauthorized');
    expect(tested.message).toMatch(/revoked or is wrong/);

    const charged = await core.invoke('payments:charge', {
      requestId: requestId(),
      amount: '5.00',
      msisdn: msisdnEnding('00', 1),
      network: 'MTN',
    });
    expect(charged.ok).toBe(true);
    if (!charged.ok) return;
    expect(charged.payment.state).toBe('rejected');
    expect(charged.payment.errorMessage).toBe(UNAUTHENTICATED_MESSAGE);
    expect(charged.payment.errorMessage).toMatch(/owner must update the keys in Settings/);

    await core.invoke('settings:save', {
      environment: 'test',
      values: {
        baseUrl: 'http://127.0.0.1:9',
        merchantId: services.sandbox.merchantId,
        publicKeyId: services.sandbox.keys.test.publicId,
        relayUrl: services.relay.url,
      },
    });
    expect(await core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'unreachable' });
    await configureTest(core, services); // back to the demo key
  });
});

describe('LIVE', () => {
  it('is refused with incomplete LIVE settings, and without the right PIN', async () => {
    const incomplete = await core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN });
    expect(incomplete.ok).toBe(false);
    expect(incomplete.message).toMatch(
      /LIVE cannot be switched on: its settings are incomplete \(missing Service URL, Merchant ID, Public key id, Secret key, Relay URL, Relay token\)/,
    );
    await core.invoke('settings:save', { environment: 'live', values: { ...liveValues(), relayToken: '' } });
    const stillMissing = await core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN });
    expect(stillMissing.message).toMatch(/missing Relay token/);
    await core.invoke('settings:save', { environment: 'live', values: liveValues() });
    expect(await core.invoke('settings:setEnvironment', { environment: 'live', pin: '9999' })).toEqual({
      ok: false,
      message: 'That PIN is not right.',
    });
    expect((await core.invoke('app:status', {})).environment).toBe('test');
    expect((await core.invoke('app:status', {})).liveReady).toBe(true);
  });

  it('with complete settings and the PIN, LIVE is entered; TEST and LIVE payments never mix in history or takings', async () => {
    const testSale = await core.invoke('payments:charge', {
      requestId: requestId(),
      amount: '11.00',
      msisdn: msisdnEnding('00', 2),
      network: 'MTN',
    });
    if (!testSale.ok) throw new Error(testSale.message);
    await waitForState(core, testSale.payment.id, ['success']);

    expect(await core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN })).toEqual({ ok: true });
    expect((await core.invoke('app:status', {})).environment).toBe('live');
    const liveSale = await core.invoke('payments:charge', {
      requestId: requestId(),
      amount: '30.00',
      msisdn: msisdnEnding('00', 3),
      network: 'MTN',
    });
    if (!liveSale.ok) throw new Error(liveSale.message);
    expect(liveSale.payment.environment).toBe('live');
    await sandboxPost(services, `transactions/${liveSale.payment.reference}/authorise`); // a live prompt is approved by hand
    const final = await waitForState(core, liveSale.payment.id, ['success']);
    expect(final.fee).toBe('0.59');

    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Accra' });
    const live = await core.invoke('takings:report', { from: today, to: today });
    expect(live.totals).toEqual({ count: 1, succeeded: 1, failed: 0, gross: '30.00', fees: '0.59', net: '29.41' });
    expect(live.byNetwork.map((n) => n.network)).toEqual(['MTN']);
    const liveHistory = await core.invoke('history:search', { page: 0, pageSize: 50 });
    expect(liveHistory.items.map((p) => p.environment)).toEqual(['live']);
    expect(await core.invoke('payments:get', { id: testSale.payment.id })).toBeNull();
    const csv = await core.invoke('takings:exportCsv', { from: today, to: today });
    expect(csv.csv.trim().split('\r\n')).toHaveLength(2);
    expect(csv.csv).toContain(liveSale.payment.reference as string);

    expect(await core.invoke('settings:setEnvironment', { environment: 'test', pin: PIN })).toEqual({ ok: true });
    const test = await core.invoke('takings:report', { from: today, to: today });
    expect(test.totals.gross).not.toContain('30.00');
    expect(test.byNetwork.map((n) => n.network)).toEqual(['MTN']); // the network charged, not the wire's "SANDBOX"
    expect((await core.invoke('history:search', { page: 0, pageSize: 200 })).items.every((p) => p.environment === 'test')).toBe(true);
  });
});

describe('secrets never leave the keychain', () => {
  it('no file in the data folder and no log line holds a secret key or a relay token', async () => {
    const secrets = [services.sandbox.keys.test.secret, services.sandbox.keys.live.secret, services.token];
    const files = allFiles(dataDir);
    expect(files.map((f) => f.path.slice(dataDir.length))).toEqual(
      expect.arrayContaining(['/settings.json', '/till.db', '/logs/till.log']),
    );
    expect(files.filter((f) => f.path.endsWith('/master.key')).map((f) => f.path)).toEqual([]); // no key that decrypts anything
    const logFile = files.find((f) => f.path.endsWith('till.log'));
    expect(logFile && logFile.bytes.length).toBeGreaterThan(1000);
    for (const secret of secrets) {
      const body = secret.replace(/^(sk_(test|live)_|rt_)/, '');
      for (const file of files) {
        expect(file.bytes.includes(Buffer.from(body)), `${file.path} holds a secret`).toBe(false);
      }
      for (const line of core.lines) expect(JSON.stringify(line)).not.toContain(body);
    }
  });

  it('a missing keychain is a clear error, with no silent fallback', () => {
    // A fresh process whose D-Bus session bus does not exist: no Secret Service to reach.
    const probe = fileURLToPath(new URL('./fixtures/keychain-probe.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', probe, join(root, 'no-keychain')], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/momo-no-bus' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const result = JSON.parse(out.trim().split('\n').at(-1) as string);
    expect(result).toEqual({
      code: 'KEYCHAIN_UNAVAILABLE',
      message: expect.stringMatching(/keychain is not available.*Secret Service keyring/),
    });
  });
});
