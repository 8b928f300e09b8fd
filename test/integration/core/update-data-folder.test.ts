/**
 * An update replaces the program, never the till's data: a data folder left by the previous version (its
 * database at the previous migration, LIVE active, LIVE keys in the keychain, a day's takings) opens in
 * this version with LIVE still active, the keys still there, the takings kept, and the schema brought up to
 * date. The keychain is the memory store the core takes in tests (the real one is named after the data
 * folder's path, which an update does not change).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemorySecretStore, createTillCore } from '../../../electron/core/index.js';
import { SettingsStore } from '../../../electron/core/settings/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../electron/core/storage/migrations/index.js';
import { insertRow, migrateTo } from '../../support/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'momo-update-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LIVE = {
  baseUrl: 'https://api.momo.example',
  merchantId: 'MCH_ABCDEF123456',
  publicKeyId: 'pk_live_abc123',
  relayUrl: 'https://relay.momo.example',
  secretKey: 'sk_live_kept_across_updates',
  relayToken: 'relay-token-kept-across-updates',
};

describe('an update opens the previous version’s data folder', () => {
  it('keeps LIVE active, the settings, the keys and the data, and migrates the database', async () => {
    const secrets = createMemorySecretStore();
    // The previous version's folder: its settings and keys, saved as that version saved them...
    const before = new SettingsStore(dir, secrets, { tillName: 'Front counter', timeZone: 'Africa/Accra' });
    await before.saveEnvironment('live', LIVE);
    before.update({ active: 'live' });
    // ...and its database, at the migration before this version's last, with a day's LIVE takings.
    const old = new Database(join(dir, 'till.db'));
    migrateTo(old as never, MIGRATIONS, SCHEMA_VERSION - 1);
    insertRow(old as never, 'daily_takings', {
      environment: 'live',
      local_date: '2026-11-25',
      till_id: before.settings.tillId,
      network: 'MTN',
      staff_key: '',
      by_hand: 0,
      staff_name: null,
      succeeded: 3,
      failed: 0,
      gross: 123_45,
      fees: 0,
      net: 123_45,
    });
    old.close();
    const tillId = before.settings.tillId;

    const core = await createTillCore({ dataDir: dir, embedded: false, secretStore: secrets, log: () => undefined, version: '9.9.9' });
    try {
      const status = await core.invoke('app:status', {});
      expect(status).toMatchObject({ environment: 'live', tillId, tillName: 'Front counter', liveReady: true, version: '9.9.9' });
      await core.invoke('owner:setPin', { pin: '2468' });
      expect(await core.invoke('updates:status', {})).toMatchObject({ version: '9.9.9', phase: 'off' });
    } finally {
      await core.close();
    }
    const after = new SettingsStore(dir, secrets, { tillName: 'x', timeZone: 'UTC' });
    expect(after.settings.active).toBe('live');
    expect(after.settings.live).toMatchObject({ merchantId: LIVE.merchantId, baseUrl: LIVE.baseUrl });
    expect(await after.storedConfig('live')).toMatchObject({ secretKey: LIVE.secretKey, relayToken: LIVE.relayToken });
    const db = new Database(join(dir, 'till.db'), { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare("SELECT gross FROM daily_takings WHERE environment = 'live'").all()).toEqual([{ gross: 123_45 }]);
    } finally {
      db.close();
    }
  });
});
