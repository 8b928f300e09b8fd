import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openRelayDatabase, SCHEMA_VERSION, EventLog } from '../../../../../relay/store/sqlite/index.js';
import type { Delivery } from '../../../../../relay/store/index.js';

const dirs: string[] = [];
function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'relay-log-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function delivery(reference: string, tx: Record<string, unknown> = {}, extra: Partial<Delivery> = {}): Delivery {
  const transaction = { reference, clientReference: `c-${reference}`, status: 'SUCCESS', amount: '5.00', ...tx };
  return {
    reference,
    clientReference: `c-${reference}`,
    environment: 'live',
    keyId: 'pk_live_Unit00002',
    receivedAt: '2026-11-21T10:00:00.000Z',
    webhookCreatedAt: '2026-11-21T09:59:59.000Z',
    transactionJson: JSON.stringify(transaction),
    timestamp: 1000,
    arrivedAt: 0,
    ...extra,
  };
}

describe('relay database', () => {
  it('opens with WAL, synchronous=FULL and the current schema version, every time', () => {
    const dir = freshDir();
    for (let i = 0; i < 2; i++) {
      const db = openRelayDatabase(dir);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").get() as { sql: string }).sql;
      expect(sql).toMatch(/STRICT/);
      db.close();
    }
  });

  it('migration 3 moves the unique key from reference to (environment, reference), keeping every event', () => {
    const dir = freshDir();
    const old = new Database(join(dir, 'relay.sqlite'));
    old.exec(`CREATE TABLE events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, reference TEXT NOT NULL UNIQUE, client_reference TEXT,
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')), key_id TEXT NOT NULL, received_at TEXT NOT NULL,
      webhook_created_at TEXT NOT NULL, transaction_json TEXT NOT NULL, first_timestamp INTEGER NOT NULL,
      latest_timestamp INTEGER NOT NULL, deliveries INTEGER NOT NULL DEFAULT 1) STRICT;
      CREATE INDEX events_client_reference ON events (client_reference, environment);
      CREATE INDEX events_environment_seq ON events (environment, seq);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      INSERT INTO meta VALUES ('log_id', 'OldLogId000000000000000');
      INSERT INTO events (reference, environment, key_id, received_at, webhook_created_at, transaction_json, first_timestamp, latest_timestamp)
        VALUES ('R1', 'test', 'pk_test_Unit00001', 'x', 'y', '{"reference":"R1"}', 5, 7);
      PRAGMA user_version = 2;`);
    old.close();
    const db = openRelayDatabase(dir);
    const log = new EventLog(db);
    expect(log.logId).toBe('OldLogId000000000000000');
    expect(log.getByReference('R1', 'test')?.seq).toBe(1);
    expect(log.apply(delivery('R1', {}, { environment: 'live' }))).toMatchObject({ kind: 'accepted', seq: 2 });
    expect(log.apply(delivery('R2')).kind).toBe('accepted');
    expect(log.lastSeq()).toBe(3);
    db.close();
  });

  it('refuses a database from a newer relay', () => {
    const dir = freshDir();
    openRelayDatabase(dir).close();
    const raw = new Database(join(dir, 'relay.sqlite'));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openRelayDatabase(dir)).toThrow(/newer than this relay understands/);
  });
});

describe('event log', () => {
  it('accepts once, acknowledges identical repeats, tracks the latest timestamp, refuses conflicts', () => {
    const db = openRelayDatabase(freshDir());
    const log = new EventLog(db);
    const first = log.apply(delivery('A', {}, { timestamp: 1000 }));
    expect(first.kind).toBe('accepted');
    if (first.kind !== 'accepted') return;
    expect(first.seq).toBe(1);
    expect(JSON.parse(first.json)).toMatchObject({ seq: 1, environment: 'live', keyId: 'pk_live_Unit00002' });
    expect(JSON.parse(first.json)).toEqual(log.getByReference('A'));

    // Same final state with keys in another order and a later timestamp: a duplicate.
    const reordered = delivery('A', {}, { timestamp: 1010 });
    reordered.transactionJson = JSON.stringify({ amount: '5.00', status: 'SUCCESS', clientReference: 'c-A', reference: 'A' });
    expect(log.apply(reordered)).toMatchObject({ kind: 'duplicate', seq: 1, outOfOrder: false });
    // An older timestamp than the latest seen: out of order.
    expect(log.apply(delivery('A', {}, { timestamp: 1005 }))).toMatchObject({
      kind: 'duplicate',
      outOfOrder: true,
      previousTimestamp: 1010,
    });

    expect(log.apply(delivery('A', { status: 'FAILED' }))).toEqual({
      kind: 'conflict',
      seq: 1,
      storedEnvironment: 'live',
      fields: ['status'],
    });

    expect(log.apply(delivery('B')).kind).toBe('accepted');
    expect(log.lastSeq()).toBe(2);
    const row = db.prepare("SELECT deliveries, latest_timestamp FROM events WHERE reference = 'A'").get();
    expect(row).toEqual({ deliveries: 3, latest_timestamp: 1010 });
    db.close();
  });

  it('pages in sequence order, filters by environment, looks up by reference and clientReference', () => {
    const db = openRelayDatabase(freshDir());
    const log = new EventLog(db);
    for (let i = 1; i <= 7; i++) log.apply(delivery(`R${i}`, {}, { environment: i % 3 === 0 ? 'test' : 'live' }));
    const p1 = log.page(0, 3);
    expect(p1.items.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(p1).toMatchObject({ nextAfter: 3, hasMore: true });
    const p3 = log.page(6, 3);
    expect(p3).toMatchObject({ nextAfter: 7, hasMore: false });
    expect(log.page(0, 10, 'test').items.map((e) => e.seq)).toEqual([3, 6]);
    expect(log.page(7, 10)).toEqual({ logId: log.logId, items: [], nextAfter: 7, hasMore: false });
    expect(log.getByReference('R4')?.seq).toBe(4);
    expect(log.getByReference('nope')).toBeUndefined();
    expect(log.getByClientReference('c-R6', 'test')?.seq).toBe(6);
    expect(log.getByClientReference('c-R6', 'live')).toBeUndefined();
    db.close();
  });

  it('keeps test and live apart: the same reference in the other environment is a new event, not a conflict (issue 11.1)', () => {
    const db = openRelayDatabase(freshDir());
    const log = new EventLog(db);
    expect(log.apply(delivery('SAME', {}, { environment: 'test' }))).toMatchObject({ kind: 'accepted', seq: 1 });
    expect(log.apply(delivery('SAME', {}, { environment: 'live' }))).toMatchObject({ kind: 'accepted', seq: 2 });
    expect(log.apply(delivery('SAME', {}, { environment: 'live' }))).toMatchObject({ kind: 'duplicate', seq: 2 });
    expect(log.apply(delivery('SAME', { status: 'FAILED' }, { environment: 'test' }))).toMatchObject({ kind: 'conflict', seq: 1 });
    expect(log.getByReference('SAME', 'test')?.seq).toBe(1);
    expect(log.getByReference('SAME', 'live')?.seq).toBe(2);
    db.close();
  });

  it('compares a deeply nested repeat without recursion (issue 11.7)', () => {
    const db = openRelayDatabase(freshDir());
    const log = new EventLog(db);
    const deep = (n: number): unknown => {
      let v: unknown = 'leaf';
      for (let i = 0; i < n; i++) v = i % 2 ? [v] : { k: v };
      return v;
    };
    const tx = { metadata: deep(4_000) };
    expect(log.apply(delivery('DEEP', tx)).kind).toBe('accepted');
    expect(log.apply(delivery('DEEP', tx))).toMatchObject({ kind: 'duplicate', seq: 1 });
    expect(log.apply(delivery('DEEP', { metadata: deep(3_999) }))).toMatchObject({ kind: 'conflict', fields: ['metadata'] });
    db.close();
  });
});
