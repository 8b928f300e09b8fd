/**
 * The embedded default: a fresh till with nothing configured starts its own sandbox simulator and
 * relay on loopback and takes a TEST payment end to end; the relay token it made is in the keychain.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createKeychainStore, keychainServiceName } from '../../../electron/core/index.js';
import { allFiles, msisdnEnding, openCore, removeDir, requestId, tempDir, waitForState, type LoggedCore } from './helpers.js';

const root = tempDir('till-embedded');
const dataDir = join(root, 'till');
let core: LoggedCore | null = null;

afterAll(async () => {
  await core?.close();
  removeDir(root);
});

describe('embedded TEST default', () => {
  it('charges a sandbox payment on first start with nothing configured', async () => {
    core = await openCore(dataDir, { embedded: true, embeddedTimeScale: 0.01 });
    const status = await core.invoke('app:status', {});
    expect(status).toMatchObject({ environment: 'test', embedded: true, pinSet: false, liveReady: false });
    const settings = await core.invoke('settings:get', {});
    expect(settings.test).toMatchObject({ embedded: true, complete: true, relayTokenSet: true });
    expect(settings.test.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(settings.test.secretKeyMasked).toMatch(/^sk_test_••••/);

    const result = await core.invoke('payments:charge', { requestId: requestId(), amount: '1.00', msisdn: msisdnEnding('00', 7), network: 'MTN' });
    if (!result.ok) throw new Error(result.message);
    const final = await waitForState(core, result.payment.id, ['success']);
    expect(final.net).toBe('0.98');
    expect((await core.invoke('app:status', {})).relayState).toBe('connected');

    const token = await createKeychainStore(keychainServiceName(dataDir)).get('test.embedded-relay-token');
    expect(token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    // Neither the token nor any secret key is in a file of the data folder (the embedded simulator's
    // and relay's own state included) or in a log line.
    for (const file of allFiles(dataDir)) {
      expect(file.bytes.includes(Buffer.from((token as string).slice(3))), file.path).toBe(false);
      expect(/sk_(test|live)_[A-Za-z0-9]{16,}/.test(file.bytes.toString('latin1')), file.path).toBe(false);
    }
    expect(core.lines.some((l) => /sk_(test|live)_[A-Za-z0-9]{16,}|rt_[A-Za-z0-9_-]{43}/.test(JSON.stringify(l)))).toBe(false);
  });

  it('starts again on the same ports with the same relay token, keeping its history', async () => {
    const before = await core!.invoke('settings:get', {});
    await core!.close();
    core = await openCore(dataDir, { embedded: true, embeddedTimeScale: 0.01 });
    const after = await core.invoke('settings:get', {});
    expect(after.test.baseUrl).toBe(before.test.baseUrl);
    expect(after.test.relayUrl).toBe(before.test.relayUrl);
    expect((await core.invoke('history:search', { page: 0, pageSize: 10 })).items[0]?.state).toBe('success');
  });
});
