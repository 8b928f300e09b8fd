/**
 * The embedded default: a fresh till with nothing configured starts its own sandbox simulator and
 * relay on loopback and takes a TEST payment end to end; the relay token it made is in the keychain,
 * and so is the master key of the simulator's encrypted secrets (no `master.key` file anywhere under
 * the data folder: the demo secret cannot be recovered from the data folder alone). A `master.key` left
 * by an older version is moved into the keychain and deleted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createKeychainStore, keychainServiceName } from '../../../electron/core/index.js';
import { startSandbox } from '../../../sandbox/server.js';
import { allFiles, msisdnEnding, openCore, PIN, startSale, waitForState, type LoggedCore } from './helpers.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';

const root = tempDir('till-embedded');
const dataDir = join(root, 'till');
let core: LoggedCore | null = null;

afterAll(async () => {
  await core?.close();
  removeDir(root);
});

const MASTER_KEY_ACCOUNT = 'test.embedded-sandbox-master-key';

/** Opens the embedded simulator's data dir with the master key from the keychain (the till must be closed). */
async function demoKeysFromKeychain(till: string) {
  const stored = await createKeychainStore(keychainServiceName(till)).get(MASTER_KEY_ACCOUNT);
  expect(stored).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  const sandbox = await startSandbox({
    dataDir: join(till, 'embedded', 'sandbox'),
    masterKey: Buffer.from(stored as string, 'base64'),
    log: () => {},
  });
  await sandbox.close();
  return { merchantId: sandbox.merchantId, keys: sandbox.keys, masterKey: stored as string };
}

/** No master.key under the data folder, and neither demo secret nor the master key in any file. */
function expectNothingRecoverable(till: string, secrets: string[], masterKey: string): void {
  const files = allFiles(till);
  expect(files.some((f) => f.path.includes(`${join('embedded', 'sandbox')}`))).toBe(true);
  expect(files.filter((f) => basename(f.path) === 'master.key').map((f) => f.path)).toEqual([]);
  const raw = Buffer.from(masterKey, 'base64');
  for (const file of files) {
    for (const secret of secrets)
      expect(file.bytes.includes(Buffer.from(secret.slice('sk_test_'.length))), `${file.path} holds a demo secret`).toBe(false);
    expect(file.bytes.includes(raw) || file.bytes.includes(Buffer.from(masterKey)), `${file.path} holds the master key`).toBe(false);
  }
}

/** Settings are the owner's: sign in as the owner (setting the PIN on a first start) and read them. */
async function ownerSettings(core: LoggedCore) {
  const status = await core.invoke('app:status', {});
  if (!status.pinSet) await core.invoke('owner:setPin', { pin: PIN });
  else if (status.caller !== 'owner') await core.invoke('owner:unlock', { pin: PIN });
  return core.invoke('settings:get', {});
}

describe('embedded TEST default', () => {
  it('charges a sandbox payment on first start with nothing configured', async () => {
    core = await openCore(dataDir, { embedded: true, embeddedTimeScale: 0.01 });
    const status = await core.invoke('app:status', {});
    expect(status).toMatchObject({ environment: 'test', embedded: true, pinSet: false, liveReady: false });
    const settings = await ownerSettings(core!);
    expect(settings.test).toMatchObject({ embedded: true, complete: true, relayTokenSet: true });
    expect(settings.test.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(settings.test.secretKeyMasked).toMatch(/^sk_test_••••/);

    const sale = await startSale(core, msisdnEnding('00', 7), '1.00');
    const final = await waitForState(core, sale.id, ['success']);
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
    const before = await ownerSettings(core!);
    await core!.close();
    core = await openCore(dataDir, { embedded: true, embeddedTimeScale: 0.01 });
    const after = await ownerSettings(core!);
    expect(after.test.baseUrl).toBe(before.test.baseUrl);
    expect(after.test.relayUrl).toBe(before.test.relayUrl);
    expect((await core.invoke('history:search', { page: 0, pageSize: 10 })).items[0]?.state).toBe('success');
  });

  it('keeps the simulator master key in the keychain: no master.key and no demo secret anywhere under the data folder', async () => {
    const masked = (await ownerSettings(core!)).test.secretKeyMasked;
    await core!.close();
    core = null;
    // The key in the keychain is the one that opens the simulator's data (the same demo merchant and key).
    const demo = await demoKeysFromKeychain(dataDir);
    expect(masked).toBe(`sk_test_••••${demo.keys.test.secret.slice(-4)}`);
    expectNothingRecoverable(dataDir, [demo.keys.test.secret, demo.keys.live.secret], demo.masterKey);
  });
});

describe('embedded simulator data from an older version (with a master.key file)', () => {
  const oldDir = join(root, 'old-till');
  let old: LoggedCore | null = null;
  afterAll(async () => {
    await old?.close();
  });

  it('moves master.key into the keychain once, deletes the file and keeps the same demo merchant and keys', async () => {
    const sandboxDir = join(oldDir, 'embedded', 'sandbox');
    const before = await startSandbox({ dataDir: sandboxDir, log: () => {} }); // the file-based behaviour
    await before.close();
    const fileKey = readFileSync(join(sandboxDir, 'master.key'));
    expect(fileKey).toHaveLength(32);

    old = await openCore(oldDir, { embedded: true, embeddedTimeScale: 0.01 });
    const settings = await ownerSettings(old);
    expect(settings.test.merchantId).toBe(before.merchantId);
    expect(settings.test.secretKeyMasked).toBe(`sk_test_••••${before.keys.test.secret.slice(-4)}`);
    expect(existsSync(join(sandboxDir, 'master.key'))).toBe(false);
    expect(await createKeychainStore(keychainServiceName(oldDir)).get(MASTER_KEY_ACCOUNT)).toBe(fileKey.toString('base64'));
    const sale = await startSale(old, msisdnEnding('00', 8), '2.00');
    await waitForState(old, sale.id, ['success']);
    expect(old.lines.some((l) => JSON.stringify(l).includes(fileKey.toString('base64')))).toBe(false);
    await old.close();
    old = null;

    const demo = await demoKeysFromKeychain(oldDir);
    expect(demo.keys).toEqual(before.keys);
    expectNothingRecoverable(oldDir, [before.keys.test.secret, before.keys.live.secret], demo.masterKey);
  });
  it('a keychain that lost the master key: the unreadable simulator data is set aside and a fresh demo merchant made', async () => {
    const previous = await demoKeysFromKeychain(oldDir);
    await createKeychainStore(keychainServiceName(oldDir)).delete(MASTER_KEY_ACCOUNT);
    old = await openCore(oldDir, { embedded: true, embeddedTimeScale: 0.01 });
    const settings = await ownerSettings(old);
    expect(settings.test).toMatchObject({ embedded: true, complete: true });
    expect(settings.test.merchantId).not.toBe(previous.merchantId);
    expect(readdirSync(join(oldDir, 'embedded')).filter((n) => n.startsWith('sandbox-unreadable-'))).toHaveLength(1);
    expect(old.lines.some((l) => JSON.stringify(l).includes('embedded.sandbox_data_set_aside'))).toBe(true);
    await old.close();
    old = null;
  });
});
