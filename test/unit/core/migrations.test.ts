/** One test per migration of the till database, plus: a database from a newer app is refused untouched. */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../electron/core/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../electron/core/migrations.js';

const dirs: string[] = [];
const open: Db[] = [];
function file(): string {
  const dir = mkdtempSync(join(tmpdir(), 'momo-mig-'));
  dirs.push(dir);
  return join(dir, 'till.db');
}
function track(db: Db): Db {
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tables = (db: Db) =>
  (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
const isStrict = (db: Db, table: string) =>
  (db.prepare('SELECT strict FROM pragma_table_list WHERE name = ?').get(table) as { strict: number }).strict === 1;

describe('opening', () => {
  it('sets WAL and synchronous=FULL on every open, and reaches the latest schema', () => {
    const path = file();
    track(openDatabase(path)).close();
    const db = track(openDatabase(path));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('refuses a database written by a newer version and leaves it as it was', () => {
    const path = file();
    const raw = track(new Database(path));
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.exec('CREATE TABLE future (x INTEGER) STRICT');
    raw.close();
    expect(() => openDatabase(path)).toThrow(/newer version of momo-till/);
    const again = track(new Database(path));
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    expect(tables(again)).toEqual(['future']);
  });
});

describe('migration 1: payments and the relay cursor', () => {
  it('creates STRICT tables with the state check and unique request id and merchantRef', () => {
    const db = track(openDatabase(file(), { migrations: MIGRATIONS.slice(0, 1) }));
    expect(tables(db)).toEqual(['payments', 'relay_cursor']);
    expect(isStrict(db, 'payments')).toBe(true);
    const insert = (id: string, state: string, ref = id) =>
      db
        .prepare(
          `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description, request_body, till_id, created_at, updated_at)
           VALUES (?, ?, ?, 'test', ?, 100, '233241234567', '765432142332', 'MTN', '', '{}', 'T1', 1, 1)`,
        )
        .run(id, `r-${id}`, ref, state);
    insert('a', 'created');
    expect(() => insert('b', 'pending')).toThrow(/CHECK constraint/);
    expect(() => insert('c', 'created', 'a')).toThrow(/UNIQUE/);
    expect(() => db.prepare("UPDATE payments SET amount = '12.50 GHS' WHERE id = 'a'").run()).toThrow(
      /cannot store TEXT value in INTEGER column/,
    );
  });
});

describe('migration 2: the transaction copy and the daily rollup', () => {
  it('adds the tables on top of version 1 without touching payments', () => {
    const path = file();
    const v1 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) }));
    v1.prepare(
      `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description, request_body, till_id, created_at, updated_at)
       VALUES ('p1', 'r1', 'm1', 'live', 'success', 100, '233241234567', '765432142332', 'MTN', '', '{}', 'T1', 1, 1)`,
    ).run();
    v1.close();
    const v2 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 2) }));
    expect(v2.pragma('user_version', { simple: true })).toBe(2);
    expect(tables(v2)).toEqual(['daily_takings', 'payments', 'relay_cursor', 'transactions']);
    expect(isStrict(v2, 'transactions') && isStrict(v2, 'daily_takings')).toBe(true);
    expect((v2.prepare('SELECT count(*) AS n FROM payments').get() as { n: number }).n).toBe(1);
    const ins = v2.prepare(
      `INSERT INTO transactions (environment, reference, client_reference, status, amount, fee, net, msisdn, network, description, till_id, completed_at, local_date, received_at)
       VALUES ('test', 'TX1', NULL, 'SUCCESS', 100, 2, 98, '233', 'SANDBOX', '', 'other', 1, '2026-01-01', 1)`,
    );
    ins.run();
    expect(() => ins.run()).toThrow(/UNIQUE/);
  });
});

describe('migration 3: payment counts kept by triggers', () => {
  it('counts existing payments per environment at upgrade time, then follows inserts and deletes', () => {
    const path = file();
    const v2 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 2) }));
    const insert = (db: Db, id: string, env: string) =>
      db
        .prepare(
          `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description, request_body, till_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'created', 100, '233241234567', '765432142332', 'MTN', '', '{}', 'T1', 1, 1)`,
        )
        .run(id, `r-${id}`, `m-${id}`, env);
    insert(v2, 'a', 'test');
    insert(v2, 'b', 'test');
    insert(v2, 'c', 'live');
    v2.close();
    const v3 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 3) }));
    const counts = () =>
      Object.fromEntries(
        (v3.prepare('SELECT environment, total FROM payment_counts').all() as Array<{ environment: string; total: number }>).map((r) => [
          r.environment,
          r.total,
        ]),
      );
    expect(counts()).toEqual({ test: 2, live: 1 });
    insert(v3, 'd', 'live');
    v3.prepare("DELETE FROM payments WHERE id = 'a'").run();
    expect(counts()).toEqual({ test: 1, live: 2 });
  });
});

describe('migration 4: TEST takings by the network the cashier charged', () => {
  it("rebuilds the TEST rollup with this till's own sandbox results under their charged network; LIVE untouched", () => {
    const path = file();
    const v3 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 3) }));
    v3.prepare(
      `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network, description, request_body, till_id, created_at, updated_at)
       VALUES ('p1', 'r1', 'T1.A', 'test', 'success', 500, '233201234567', '765432102332', 'TELECEL', '', '{}', 'T1', 1, 1)`,
    ).run();
    const tx = v3.prepare(
      `INSERT INTO transactions (environment, reference, client_reference, status, amount, fee, net, msisdn, network, description, till_id, completed_at, local_date, received_at)
       VALUES (?, ?, ?, 'SUCCESS', ?, 0, ?, '233201234567', ?, '', 'T1', 1, '2026-11-20', 1)`,
    );
    tx.run('test', 'TX1', 'T1.A', 500, 500, 'SANDBOX'); // ours: charged on TELECEL
    tx.run('test', 'TX2', 'T9.B', 300, 300, 'SANDBOX'); // another till's: unknown network
    tx.run('live', 'TX3', 'T1.C', 700, 700, 'MTN');
    const roll = v3.prepare(
      `INSERT INTO daily_takings (environment, local_date, till_id, network, succeeded, failed, gross, fees, net) VALUES (?, '2026-11-20', 'T1', ?, 1, 0, ?, 0, ?)`,
    );
    roll.run('test', 'SANDBOX', 800, 800);
    roll.run('live', 'MTN', 700, 700);
    v3.close();
    const v4 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 4) }));
    const rows = v4.prepare('SELECT environment, network, succeeded, gross FROM daily_takings ORDER BY environment, network').all();
    expect(rows).toEqual([
      { environment: 'live', network: 'MTN', succeeded: 1, gross: 700 },
      { environment: 'test', network: 'SANDBOX', succeeded: 1, gross: 300 },
      { environment: 'test', network: 'TELECEL', succeeded: 1, gross: 500 },
    ]);
  });
});

describe('migration 5: merchantRef searched per environment', () => {
  it('adds an (environment, merchant_ref) index that a per-environment merchantRef range uses', () => {
    const db = track(openDatabase(file(), { migrations: MIGRATIONS.slice(0, 5) }));
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT id FROM payments WHERE environment = 'test' AND merchant_ref >= 'T1.' AND merchant_ref < 'T1.\uffff' ORDER BY merchant_ref DESC LIMIT 1000",
      )
      .all() as Array<{ detail: string }>;
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/payments_env_merchant_ref/);
  });
});

describe('migration 6: the relay log id with the cursor', () => {
  it('adds log_id (NULL) to existing cursors and keeps their sequence', () => {
    const path = file();
    const v5 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 5) }));
    v5.prepare("INSERT INTO relay_cursor (environment, relay_url, last_seq) VALUES ('test', 'http://127.0.0.1:1', 42)").run();
    v5.close();
    const v6 = track(openDatabase(path, { migrations: MIGRATIONS.slice(0, 6) }));
    expect(v6.prepare('SELECT environment, relay_url, last_seq, log_id FROM relay_cursor').all()).toEqual([
      { environment: 'test', relay_url: 'http://127.0.0.1:1', last_seq: 42, log_id: null },
    ]);
    v6.prepare("UPDATE relay_cursor SET log_id = 'AbCdEfGhIjKlMnOpQrSt-_'").run();
  });
});

it('every migration is covered by a test above', () => {
  expect(SCHEMA_VERSION).toBe(6);
});
