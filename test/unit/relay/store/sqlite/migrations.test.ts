/**
 * One test per migration of the relay's SQLite event log, on a database at the schema a relay of the version
 * before left, and its migrations folder. Elsewhere: migration 2 (the log id) on upgrade in
 * test/integration/relay/store/sqlite/log-id.test.ts, migration 3 in event-log.test.ts, migration 7 in
 * owner-summary.test.ts.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog, MIGRATIONS as RELAY_MIGRATIONS, openRelayDatabase, SCHEMA_VERSION } from '../../../../../relay/store/sqlite/index.js';
import { expectFolderListed, inMemoryDatabases, insertRow, migrateTo } from '../../../../support/migrations.js';
import { frontAmaRow, summarySaleJson } from '../../../../support/owner-summary-sales.js';

const memory = inMemoryDatabases();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A relay data folder whose relay.sqlite a relay of `version` left, with `fill` run on it. */
function dataDirAt(version: number, fill: (db: Database.Database) => void = () => {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-mig-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'relay.sqlite'));
  migrateTo(db, RELAY_MIGRATIONS, version);
  fill(db);
  db.close();
  return dir;
}

/** An event row as every schema has it (values overridable). */
const event = (reference: string, values: Record<string, unknown> = {}) => ({
  reference,
  environment: 'live',
  key_id: 'pk_live_x',
  received_at: '2026-11-21T10:00:00.000Z',
  webhook_created_at: '2026-11-21T10:00:00.000Z',
  transaction_json: '{}',
  first_timestamp: 1,
  latest_timestamp: 1,
  ...values,
});

/** A viewer link's row as migration 5 made it (values overridable). */
const link = (id: string, values: Record<string, unknown> = {}) => ({
  id,
  token_hash: `sha256:${id}`,
  environment: 'live',
  label: id,
  time_zone: 'Africa/Accra',
  created_by: 'till',
  created_at: '2026-11-21T10:00:00.000Z',
  ...values,
});

/** A phone's row as migration 10 made it (values overridable). */
const device = (id: string, linkId: string, values: Record<string, unknown> = {}) => ({
  id,
  link_id: linkId,
  credential_hash: `sha256:${id}`,
  name: 'Android phone · Chrome',
  created_at: 'a',
  last_seen_at: 'a',
  expires_at: 'b',
  ...values,
});

it('lists every file of its migrations folder, in order, one version each', async () => {
  await expectFolderListed(fileURLToPath(new URL('../../../../../relay/store/sqlite/migrations', import.meta.url)), RELAY_MIGRATIONS);
});

describe('relay migration 1: the event log', () => {
  it('keeps one event per reference, numbered by seq, environment checked', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 1);
    insertRow(db, 'events', event('TX1'));
    insertRow(db, 'events', event('TX2'));
    expect(() => insertRow(db, 'events', event('TX1'))).toThrow(/UNIQUE/);
    expect(() => insertRow(db, 'events', event('TX3', { environment: 'staging' }))).toThrow(/CHECK constraint/);
    expect(db.prepare('SELECT seq, reference, deliveries FROM events').all()).toEqual([
      { seq: 1, reference: 'TX1', deliveries: 1 },
      { seq: 2, reference: 'TX2', deliveries: 1 },
    ]);
  });
});

describe('relay migration 4: retention', () => {
  it('keeps every event, marks nothing pruned yet, and keeps a pruned reference once per environment', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 3);
    insertRow(db, 'events', event('TX1'));
    migrateTo(db, RELAY_MIGRATIONS, 4);
    expect(db.prepare('SELECT seq, reference FROM events').all()).toEqual([{ seq: 1, reference: 'TX1' }]);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'pruned_through'").get()).toEqual({ value: '0' });
    const pruned = { reference: 'TX0', seq: 1, transaction_sha256: 'h', latest_timestamp: 1, deliveries: 1 };
    insertRow(db, 'pruned_references', { ...pruned, environment: 'live' });
    insertRow(db, 'pruned_references', { ...pruned, environment: 'test' });
    expect(() => insertRow(db, 'pruned_references', { ...pruned, environment: 'live' })).toThrow(/UNIQUE/);
  });
});

describe("relay migration 5: the owner's view", () => {
  it('sums the events already in the log once, by hour, till, cashier and network, and sums new ones as they come', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 4);
    const sale = (reference: string, amount: string, status = 'SUCCESS') =>
      summarySaleJson(reference, status, amount, '2026-11-21T10:05:00.000Z');
    insertRow(db, 'events', event('A', { transaction_json: sale('A', '12.50') }));
    insertRow(db, 'events', event('B', { transaction_json: sale('B', '7.00', 'FAILED') }));
    insertRow(db, 'events', event('C', { transaction_json: '{"deep":' }));
    migrateTo(db, RELAY_MIGRATIONS, 5);
    const summary = () =>
      db
        .prepare('SELECT hour, till_id, till_name, cashier_id, cashier_name, network, succeeded, failed, gross, fees FROM owner_hourly')
        .all();
    const row = frontAmaRow('2026-11-21T10:05:00.000Z');
    expect(summary()).toEqual([{ ...row, succeeded: 1, failed: 1, gross: 1250, fees: 10 }]);
    insertRow(db, 'events', event('D', { transaction_json: sale('D', '1.00') }));
    expect(summary()).toEqual([{ ...row, succeeded: 2, failed: 1, gross: 1350, fees: 20 }]);
  });
});

describe('relay migration 6: who turned a link off', () => {
  it('names the owner for every link turned off before it, and nobody for the links still on', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 5);
    insertRow(db, 'owner_links', link('on', { revoked_at: null }));
    insertRow(db, 'owner_links', link('off', { revoked_at: '2026-11-22T10:00:00.000Z' }));
    migrateTo(db, RELAY_MIGRATIONS, 6);
    expect(db.prepare('SELECT id, revoked_at, revoked_by FROM owner_links ORDER BY id').all()).toEqual([
      { id: 'off', revoked_at: '2026-11-22T10:00:00.000Z', revoked_by: 'owner' },
      { id: 'on', revoked_at: null, revoked_by: null },
    ]);
    expect(() => db.prepare("UPDATE owner_links SET revoked_by = 'someone'").run()).toThrow(/CHECK constraint/);
  });
});

describe('relay migration 8: no second index of references', () => {
  it('drops events_reference, and no statement of the event log then reads the whole log', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 7);
    const indexes = () =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'").all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
    expect(indexes()).toContain('events_reference');
    migrateTo(db, RELAY_MIGRATIONS, 8);
    expect(indexes()).not.toContain('events_reference');
    // Every statement EventLog prepares, planned as SQLite would run it: a look-up by reference alone
    // (getByReference without an environment) must still read an index.
    const prepared: string[] = [];
    const recording = new Proxy(db, {
      get: (target, name) =>
        name === 'prepare' ? (sql: string) => (prepared.push(sql), target.prepare(sql)) : Reflect.get(target, name, target),
    });
    new EventLog(recording);
    const plans = prepared.map((sql) => {
      const params = Array.from(sql.matchAll(/\?/g), () => 'x');
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      return `${sql}\n${rows.map((r) => r.detail).join('\n')}`;
    });
    expect(
      plans.some((p) => /environment IN \('live', 'test'\) AND reference = \?/.test(p) && /USING INDEX sqlite_autoindex_events_1/.test(p)),
    ).toBe(true);
    for (const plan of plans) expect(plan).not.toMatch(/\bSCAN events\b/);
  });
});

describe('relay migration 10: one-time invitations and phones', () => {
  it('spends the invitations of the links made before it (used ones say so), and adds the phones table', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 9);
    insertRow(db, 'owner_links', link('opened', { last_used_at: '2026-11-22T10:00:00.000Z' }));
    insertRow(db, 'owner_links', link('never', { last_used_at: null }));
    migrateTo(db, RELAY_MIGRATIONS, 10);
    expect(db.prepare('SELECT id, invite_expires_at, invite_used_at, created_by_token FROM owner_links ORDER BY id').all()).toEqual([
      { id: 'never', invite_expires_at: '2026-11-21T10:00:00.000Z', invite_used_at: '2026-11-21T10:00:00.000Z', created_by_token: null },
      { id: 'opened', invite_expires_at: '2026-11-21T10:00:00.000Z', invite_used_at: '2026-11-22T10:00:00.000Z', created_by_token: null },
    ]);
    insertRow(db, 'owner_devices', device('od_1', 'opened', { credential_hash: 'sha256:x' }));
    expect(() => insertRow(db, 'owner_devices', device('od_2', 'never', { credential_hash: 'sha256:x' }))).toThrow(/UNIQUE/);
  });
});

describe('relay migration 11: events set aside by retention', () => {
  it('adds an empty events_set_aside and leaves the events as they were', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 10);
    insertRow(db, 'events', event('TX1'));
    migrateTo(db, RELAY_MIGRATIONS, 11);
    expect(db.prepare('SELECT count(*) AS n FROM events_set_aside').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT reference FROM events').all()).toEqual([{ reference: 'TX1' }]);
  });
});

describe('relay migration 12: how far each till has read', () => {
  it('adds an empty till_reads (the log counts as unread until its tills next read) and leaves the events as they were', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 11);
    insertRow(db, 'events', event('TX1'));
    migrateTo(db, RELAY_MIGRATIONS, 12);
    expect(db.prepare('SELECT count(*) AS n FROM till_reads').get()).toEqual({ n: 0 });
    insertRow(db, 'till_reads', {
      token_hash: `sha256:${'a'.repeat(64)}`,
      label: 'front',
      read_seq: 1,
      read_at: '2026-11-27T00:00:00.000Z',
    });
    expect(() => insertRow(db, 'till_reads', { token_hash: 'x', label: 'front', read_seq: -1, read_at: 'now' })).toThrow(/CHECK/);
    expect(db.prepare('SELECT reference FROM events').all()).toEqual([{ reference: 'TX1' }]);
  });
});

describe('relay migration 13: names and labels as typed', () => {
  it('neutralises the owner texts that hold a forbidden character, keeps the rest, and refuses one from then on', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 12);
    insertRow(db, 'owner_links', link('bad', { label: 'Ama\u200bphone \u202eevil\u0000' }));
    insertRow(db, 'owner_links', link('fine', { label: 'Kofi\u200d\u2764' }));
    insertRow(db, 'owner_devices', device('d1', 'bad', { name: '\u2066\u2069' }));
    migrateTo(db, RELAY_MIGRATIONS, 13);
    expect(db.prepare('SELECT id, label FROM owner_links ORDER BY id').all()).toEqual([
      { id: 'bad', label: 'Ama phone evil' },
      { id: 'fine', label: 'Kofi\u200d\u2764' }, // a joiner is no forbidden character
    ]);
    expect(db.prepare('SELECT name FROM owner_devices').all()).toEqual([{ name: '-' }]);
    for (const label of ['x\u0007', 'x\u00ady', 'x\u{e0041}', 'x\u0000']) {
      expect(() => insertRow(db, 'owner_links', link(`new${label.length}`, { label })), JSON.stringify(label)).toThrow(
        /no control, invisible/,
      );
    }
    expect(() => db.prepare("UPDATE owner_devices SET name = 'a\u2028b'").run()).toThrow(/owner_devices.name/);
    expect(() => insertRow(db, 'till_reads', { token_hash: 'x', label: 'fr\u200bont', read_seq: 1, read_at: 'now' })).toThrow(
      /till_reads.label/,
    );
    insertRow(db, 'owner_links', link('ok', { label: 'Àkwàaba · Магазин' }));
  });
});

describe('relay migration 9: the migration history', () => {
  it("upgrades a relay.sqlite from before it: its events and log id kept, the versions it had recorded under this relay's names", () => {
    let logId = '';
    const dir = dataDirAt(8, (old) => {
      insertRow(old, 'events', event('TX1'));
      logId = (old.prepare("SELECT value FROM meta WHERE key = 'log_id'").get() as { value: string }).value;
    });
    const db = openRelayDatabase(dir);
    try {
      const log = new EventLog(db);
      expect(log.logId).toBe(logId);
      expect(log.getByReference('TX1', 'live')?.seq).toBe(1);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const rows = db.prepare('SELECT version, name, applied_at IS NULL AS before FROM schema_migrations ORDER BY version').all();
      expect(rows).toEqual(RELAY_MIGRATIONS.map((m) => ({ version: m.version, name: m.name, before: m.version < 9 ? 1 : 0 })));
    } finally {
      db.close();
    }
  });

  it("refuses a relay.sqlite whose recorded migration 5 is not this relay's, untouched, saying what to do", () => {
    const dir = dataDirAt(SCHEMA_VERSION);
    openRelayDatabase(dir).close();
    const raw = new Database(join(dir, 'relay.sqlite'));
    raw.exec("UPDATE schema_migrations SET name = 'owner view' WHERE version = 5");
    raw.close();
    expect(() => openRelayDatabase(dir)).toThrow(
      /relay\.sqlite records migration 5 as "owner view", but this build's migration 5 is "owner's view: .*nothing was changed.*restore a backup/s,
    );
  });
});
