/**
 * Settings with the real OS keychain (scripts/with-keyring.sh): the secret key and the relay token
 * are in the keychain only, never in the data folder or a log line; validation names the field;
 * the owner PIN guards settings and LIVE; LIVE is refused while incomplete; test connection says
 * ok / 401 / unreachable; a revoked key gives the cashier the 401 message.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKeychainStore, keychainServiceName } from '../../../electron/core/index.js';
import { UNAUTHENTICATED_MESSAGE } from '../../../electron/core/payments/error-messages.js';
import { allFiles, configureTest, msisdnEnding, openCore, PIN, requestId, sandboxPost, startSale, waitForState } from './helpers.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('till-settings');

const liveValues = () => ({
  baseUrl: fixture.services.sandbox.baseUrl, // loopback: http allowed even in LIVE
  merchantId: fixture.services.sandbox.merchantId,
  publicKeyId: fixture.services.sandbox.keys.live.publicId,
  secretKey: fixture.services.sandbox.keys.live.secret,
  relayUrl: fixture.services.relay.url,
  relayToken: fixture.services.token,
});

describe('owner PIN and settings', () => {
  it('settings cannot be saved before a PIN exists or while the owner is not signed in', async () => {
    await expect(fixture.core.invoke('settings:save', { environment: 'test', values: liveValues() })).rejects.toEqual({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/Only the owner/),
    });
    await fixture.core.invoke('owner:setPin', { pin: PIN });
    await fixture.core.invoke('owner:lock', {});
    await expect(fixture.core.invoke('settings:save', { environment: 'test', values: liveValues() })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(fixture.core.invoke('takings:report', { from: '2026-01-01', to: '2026-01-02' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await fixture.core.invoke('owner:unlock', { pin: '0000' })).toEqual({ ok: false, message: 'That PIN is not right.' });
    expect(await fixture.core.invoke('owner:unlock', { pin: PIN })).toEqual({ ok: true });
    expect((await fixture.core.invoke('app:status', {})).ownerUnlocked).toBe(true);
  });

  it('rejects bad values with a message naming the field, and saves nothing', async () => {
    const bad = async (environment: 'test' | 'live', patch: Record<string, string>, field: string, message: RegExp) => {
      const values = {
        ...liveValues(),
        ...(environment === 'test'
          ? { publicKeyId: fixture.services.sandbox.keys.test.publicId, secretKey: fixture.services.sandbox.keys.test.secret }
          : {}),
        ...patch,
      };
      await expect(fixture.core.invoke('settings:save', { environment, values })).rejects.toEqual({
        code: 'SETTINGS_INVALID',
        field,
        message: expect.stringMatching(message),
      });
    };
    await bad(
      'test',
      { secretKey: fixture.services.sandbox.keys.live.secret },
      'secretKey',
      /LIVE secret key; TEST needs one starting sk_test_/,
    );
    await bad(
      'live',
      { secretKey: fixture.services.sandbox.keys.test.secret },
      'secretKey',
      /TEST secret key; LIVE needs one starting sk_live_/,
    );
    await bad('test', { merchantId: 'MCH_short' }, 'merchantId', /MCH_ followed by 12/);
    await bad('test', { baseUrl: 'ftp://pay.example.com' }, 'baseUrl', /https:\/\//);
    await bad('live', { baseUrl: 'http://pay.example.com' }, 'baseUrl', /must use https:\/\/ in LIVE/);
    await bad('live', { relayUrl: 'http://relay.example.com' }, 'relayUrl', /must use https:\/\/ in LIVE/);
    await bad('test', { relayToken: 'not-a-token' }, 'relayToken', /rt_ followed by 43/);
    const view = await fixture.core.invoke('settings:get', {});
    expect(view.test.secretKeyMasked).toBeNull();
    expect(view.live.baseUrl).toBe('');
  });

  it('saves settings with the secret and the relay token in the keychain only, and reads them back masked', async () => {
    await configureTest(fixture.core, fixture.services);
    const view = await fixture.core.invoke('settings:get', {});
    const secret = fixture.services.sandbox.keys.test.secret;
    expect(view.test).toMatchObject({
      baseUrl: fixture.services.sandbox.baseUrl,
      merchantId: fixture.services.sandbox.merchantId,
      secretKeyMasked: `sk_test_••••${secret.slice(-4)}`,
      relayTokenSet: true,
      callbackUrl: `${fixture.services.relay.url}/v1/webhooks`,
      complete: true,
      embedded: false,
    });
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(JSON.stringify(view)).not.toContain(fixture.services.token);
    const keychain = createKeychainStore(keychainServiceName(fixture.dataDir));
    expect(await keychain.get('test.secret-key')).toBe(secret);
    expect(await keychain.get('test.relay-token')).toBe(fixture.services.token);
    // Saving again without a secret keeps the stored one.
    await fixture.core.invoke('settings:save', {
      environment: 'test',
      values: {
        baseUrl: fixture.services.sandbox.baseUrl,
        merchantId: fixture.services.sandbox.merchantId,
        publicKeyId: fixture.services.sandbox.keys.test.publicId,
        relayUrl: fixture.services.relay.url,
      },
    });
    expect(await keychain.get('test.secret-key')).toBe(secret);
    // A fresh start reads the same settings back.
    await fixture.core.close();
    fixture.core = await openCore(fixture.dataDir);
    await fixture.core.invoke('owner:unlock', { pin: PIN });
    expect((await fixture.core.invoke('settings:get', {})).test).toEqual(view.test);
  });

  it('test connection: ok, unreachable, then 401 for a revoked key (and the cashier gets the 401 message)', async () => {
    await fixture.core.invoke('owner:unlock', { pin: PIN });
    expect(await fixture.core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'ok' });

    const created = await sandboxPost(fixture.services, `merchants/${fixture.services.sandbox.merchantId}/keys`, { environment: 'test' });
    await configureTest(fixture.core, fixture.services, created.secret as string);
    expect(await fixture.core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'ok' });
    await sandboxPost(fixture.services, `keys/${created.publicId as string}/revoke`);
    const tested = await fixture.core.invoke('settings:testConnection', { environment: 'test' });
    expect(tested.result).toBe('unauthorized');
    expect(tested.message).toMatch(/revoked or is wrong/);

    const charged = await fixture.core.invoke('payments:charge', {
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

    await fixture.core.invoke('settings:save', {
      environment: 'test',
      values: {
        baseUrl: 'http://127.0.0.1:9',
        merchantId: fixture.services.sandbox.merchantId,
        publicKeyId: fixture.services.sandbox.keys.test.publicId,
        relayUrl: fixture.services.relay.url,
      },
    });
    expect(await fixture.core.invoke('settings:testConnection', { environment: 'test' })).toMatchObject({ result: 'unreachable' });
    await configureTest(fixture.core, fixture.services); // back to the demo key
  });
});

describe('LIVE', () => {
  it('is refused with incomplete LIVE settings, and without the right PIN', async () => {
    const incomplete = await fixture.core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN });
    expect(incomplete.ok).toBe(false);
    expect(incomplete.message).toMatch(
      /LIVE cannot be switched on: its settings are incomplete \(missing Service URL, Merchant ID, Public key id, Secret key, Relay URL, Relay token\)/,
    );
    // The screens list what is missing before asking for the PIN, from the same check.
    expect(await fixture.core.invoke('settings:liveMissing', {})).toEqual({
      missing: ['baseUrl', 'merchantId', 'publicKeyId', 'secretKey', 'relayUrl', 'relayToken'],
    });
    // An impossible switch is refused before the PIN is checked: a wrong PIN is not what the owner is told.
    expect((await fixture.core.invoke('settings:setEnvironment', { environment: 'live', pin: '9999' })).message).toMatch(
      /^LIVE cannot be switched on: its settings are incomplete/,
    );
    await fixture.core.invoke('settings:save', { environment: 'live', values: { ...liveValues(), relayToken: '' } });
    expect(await fixture.core.invoke('settings:liveMissing', {})).toEqual({ missing: ['relayToken'] });
    const stillMissing = await fixture.core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN });
    expect(stillMissing.message).toMatch(/missing Relay token/);
    await fixture.core.invoke('settings:save', { environment: 'live', values: liveValues() });
    expect(await fixture.core.invoke('settings:liveMissing', {})).toEqual({ missing: [] });
    expect(await fixture.core.invoke('settings:setEnvironment', { environment: 'live', pin: '9999' })).toEqual({
      ok: false,
      message: 'That PIN is not right.',
    });
    expect((await fixture.core.invoke('app:status', {})).environment).toBe('test');
    expect((await fixture.core.invoke('app:status', {})).liveReady).toBe(true);
  });

  it('with complete settings and the PIN, LIVE is entered; TEST and LIVE payments never mix in history or takings', async () => {
    const testSale = await startSale(fixture.core, msisdnEnding('00', 2), '11.00');
    await waitForState(fixture.core, testSale.id, ['success']);

    expect(await fixture.core.invoke('settings:setEnvironment', { environment: 'live', pin: PIN })).toEqual({ ok: true });
    expect((await fixture.core.invoke('app:status', {})).environment).toBe('live');
    const liveSale = await startSale(fixture.core, msisdnEnding('00', 3), '30.00');
    expect(liveSale.environment).toBe('live');
    await sandboxPost(fixture.services, `transactions/${liveSale.reference}/authorise`); // a live prompt is approved by hand
    const final = await waitForState(fixture.core, liveSale.id, ['success']);
    expect(final.fee).toBe('0.59');

    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Accra' });
    const live = await fixture.core.invoke('takings:report', { from: today, to: today });
    expect(live.totals).toEqual({ count: 1, succeeded: 1, failed: 0, gross: '30.00', fees: '0.59', net: '29.41' });
    expect(live.byNetwork.map((n) => n.network)).toEqual(['MTN']);
    const liveHistory = await fixture.core.invoke('history:search', { page: 0, pageSize: 50 });
    expect(liveHistory.items.map((p) => p.environment)).toEqual(['live']);
    expect(await fixture.core.invoke('payments:get', { id: testSale.id })).toBeNull();
    const csv = await fixture.core.invoke('takings:exportCsv', { from: today, to: today });
    expect(csv.csv.trim().split('\r\n')).toHaveLength(2);
    expect(csv.csv).toContain(liveSale.reference as string);

    expect(await fixture.core.invoke('settings:setEnvironment', { environment: 'test', pin: PIN })).toEqual({ ok: true });
    const test = await fixture.core.invoke('takings:report', { from: today, to: today });
    expect(test.totals.gross).not.toContain('30.00');
    expect(test.byNetwork.map((n) => n.network)).toEqual(['MTN']); // the network charged, not the wire's "SANDBOX"
    expect((await fixture.core.invoke('history:search', { page: 0, pageSize: 200 })).items.every((p) => p.environment === 'test')).toBe(
      true,
    );
  });
});

describe('secrets never leave the keychain', () => {
  it('no file in the data folder and no log line holds a secret key or a relay token', async () => {
    const secrets = [fixture.services.sandbox.keys.test.secret, fixture.services.sandbox.keys.live.secret, fixture.services.token];
    const files = allFiles(fixture.dataDir);
    expect(files.map((f) => f.path.slice(fixture.dataDir.length))).toEqual(
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
      for (const line of fixture.core.lines) expect(JSON.stringify(line)).not.toContain(body);
    }
  });

  it('a missing keychain is a clear error, with no silent fallback', () => {
    // A fresh process whose D-Bus session bus does not exist: no Secret Service to reach.
    const probe = fileURLToPath(new URL('./fixtures/keychain-probe.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', probe, join(fixture.root, 'no-keychain')], {
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
