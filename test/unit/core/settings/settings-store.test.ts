/** settings.json: a damaged file stops the till with a message naming the file, never a raw parser error. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isComplete, missingSettings, SettingsStore, toView } from '../../../../electron/core/settings/settings-store.js';
import { createMemorySecretStore } from '../../../../electron/core/storage/secret-store.js';
import { CoreError } from '../../../../electron/core/errors.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () => new SettingsStore(dir, createMemorySecretStore(), { tillName: 'Till 1', timeZone: 'Africa/Accra' });

function failure(): CoreError {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error('expected the damaged settings to be refused');
}

describe('settings.json', () => {
  it('is created on first start and read back', () => {
    const first = open();
    expect(open().settings.tillId).toBe(first.settings.tillId);
  });

  it('a file cut short (not JSON) is refused with a message naming the file', () => {
    writeFileSync(join(dir, 'settings.json'), '{"version": 1, "tillId": "T12');
    const error = failure();
    expect(error.message).toBe(`settings.json is damaged (it is not valid JSON); fix or remove it: ${join(dir, 'settings.json')}`);
  });

  it('an unknown time zone (hand-edited file) is refused naming the field, not left to break every local date', () => {
    open();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...open().settings, timeZone: 'Africa/Atlantis' }));
    expect(failure().message).toMatch(/^settings\.json is damaged \(timeZone\)/);
    rmSync(join(dir, 'settings.json'));
    expect(() => new SettingsStore(dir, createMemorySecretStore(), { tillName: 'Till 1', timeZone: 'Mars/Olympus' })).toThrow(
      /"Mars\/Olympus" is not a time zone/,
    );
  });

  it('a file with a wrong field is refused naming the field', () => {
    open();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...open().settings, active: 'prod' }));
    expect(failure().message).toMatch(/^settings\.json is damaged \(active\)/);
  });

  it('a file written before receipts could be set up reads as the receipt defaults (no printer, 80 mm)', () => {
    open();
    const { receipt: _receipt, ...before } = open().settings;
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(before));
    expect(open().settings.receipt).toMatchObject({ printer: 'none', paper: 80, port: 9100, autoPrint: false });
  });
});

describe('what an environment still lacks (issue 20 item 9: the LIVE switch lists it before any PIN)', () => {
  it("names every empty setting in the form's order, from the stored file and the keychain alike; none once all are set", async () => {
    const store = new SettingsStore(dir, createMemorySecretStore(), { tillName: 'Till 1', timeZone: 'Africa/Accra' });
    const empty = await store.storedConfig('live');
    expect(missingSettings(empty)).toEqual(['baseUrl', 'merchantId', 'publicKeyId', 'secretKey', 'relayUrl', 'relayToken']);
    expect(isComplete(empty)).toBe(false);
    expect(toView(empty).complete).toBe(false);
    await store.saveEnvironment('live', {
      baseUrl: 'https://pay.example.com',
      merchantId: 'MCH_ABCDEFGHJKLM',
      publicKeyId: 'pk_live_abc12345',
      relayUrl: '',
      secretKey: 'sk_live_0123456789abcdef0123',
      relayToken: null,
    });
    expect(missingSettings(await store.storedConfig('live'))).toEqual(['relayUrl', 'relayToken']);
    await store.saveEnvironment('live', {
      baseUrl: 'https://pay.example.com',
      merchantId: 'MCH_ABCDEFGHJKLM',
      publicKeyId: 'pk_live_abc12345',
      relayUrl: 'https://relay.example.com',
      secretKey: null,
      relayToken: `rt_${'A'.repeat(43)}`,
    });
    const full = await store.storedConfig('live');
    expect(missingSettings(full)).toEqual([]);
    expect(isComplete(full)).toBe(true);
  });
});
