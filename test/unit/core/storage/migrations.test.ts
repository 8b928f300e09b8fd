/**
 * Opening the till database, its migrations folder and its migration history (migration 19): a database from
 * a newer app, or one whose history disagrees with this app's migrations, is refused untouched. The tests of
 * each migration: migrations-0001-0010.test.ts and migrations-0011-0018.test.ts.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/storage/migrations/index.js';
import { expectFolderListed, insertRow, migrateTo } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { tables, tillDatabases, transaction, version } from '../../../support/till-migrations.js';

const { file, track } = tillDatabases();

type HistoryRow = { version: number; name: string; applied_at: number | null };
const history = (db: Db) => db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as HistoryRow[];

/** A till database file closed at `version`, as a user of that version left it, with `fill` run on it. */
function tillFileAt(version: number, fill: (db: Db) => void = () => {}): string {
  const path = file();
  const db = new Database(path);
  migrateTo(db, MIGRATIONS, version);
  fill(db);
  db.close();
  return path;
}

/** Changes a closed till database behind the app's back. */
function tamper(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

describe('opening', () => {
  it('sets WAL and synchronous=FULL on every open, and reaches the latest schema', () => {
    const path = file();
    track(openDatabase(path)).close();
    const db = track(openDatabase(path));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(version(db)).toBe(SCHEMA_VERSION);
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

  it('numbers its migrations 1, 2, 3… in order', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('lists every file of its migrations folder, in order, one version each', async () => {
    await expectFolderListed(fileURLToPath(new URL('../../../../electron/core/storage/migrations', import.meta.url)), MIGRATIONS);
  });
});

describe('migration 19: the migration history', () => {
  it('records every migration of a new database by version and name, with when', () => {
    const before = Date.now();
    const db = track(openDatabase(file()));
    const rows = history(db);
    expect(rows.map((r) => [r.version, r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    expect(rows.every((r) => r.applied_at !== null && r.applied_at >= before)).toBe(true);
  });

  it("upgrades a database from before it: its rows kept, the versions it had recorded under this app's names, with no time", () => {
    const path = tillFileAt(18, (db) => insertRow(db, 'payments', paymentRow('p1', { state: 'success' })));
    const db = track(openDatabase(path));
    expect(version(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id, receipt_no FROM payments').all()).toEqual([{ id: 'p1', receipt_no: 1 }]);
    const rows = history(db);
    expect(rows.map((r) => [r.version, r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    expect(rows.filter((r) => r.applied_at === null).map((r) => r.version)).toEqual(MIGRATIONS.slice(0, 18).map((m) => m.version));
    expect(rows.at(-1)?.applied_at).toEqual(expect.any(Number));
    db.close();
    track(openDatabase(path)); // and opens again as it is
  });

  it("refuses a database whose recorded migration 7 is not this app's, untouched, saying what to do", () => {
    const path = file();
    track(openDatabase(path)).close();
    tamper(path, "UPDATE schema_migrations SET name = 'people' WHERE version = 7");
    expect(() => openDatabase(path)).toThrow(
      /till\.db records migration 7 as "people", but this build's migration 7 is "people, PIN lock-out and audit log".*nothing was changed.*Open it with the build that migrated it, or restore a backup/s,
    );
    const again = track(new Database(path));
    expect(again.prepare('SELECT name FROM schema_migrations WHERE version = 7').get()).toEqual({ name: 'people' });
  });

  it('refuses a database whose history holds a migration this app does not have, or none at all', () => {
    const ahead = file();
    track(openDatabase(ahead)).close();
    tamper(ahead, `INSERT INTO schema_migrations (version, name) VALUES (${SCHEMA_VERSION + 1}, 'from another branch')`);
    expect(() => openDatabase(ahead)).toThrow(
      new RegExp(`records migration ${SCHEMA_VERSION + 1} \\("from another branch"\\), which this build does not have`),
    );
    const gone = file();
    track(openDatabase(gone)).close();
    tamper(gone, 'DROP TABLE schema_migrations');
    expect(() => openDatabase(gone)).toThrow(new RegExp(`has no migration history although it says it is at version ${SCHEMA_VERSION}`));
    expect(tables(track(new Database(gone)))).not.toContain('schema_migrations');
  });
});

it('every migration is covered by a test, here or in migrations-0001-0010.test.ts, migrations-0011-0018.test.ts and migrations-0020.test.ts', () => {
  expect(SCHEMA_VERSION).toBe(22);
});

it('migration 22 gives each result the network its metadata named, unknown (NULL) for a result kept from before', () => {
  const path = tillFileAt(21, (old) => {
    insertRow(old, 'transactions', transaction('TX_OLD'));
  });
  const db = track(openDatabase(path));
  expect(db.prepare('SELECT reference, charged_network FROM transactions').all()).toEqual([{ reference: 'TX_OLD', charged_network: null }]);
});

it('migration 21 gives the relay cursor the receivedAt of its event, unknown (NULL) for a cursor kept from before', () => {
  const path = tillFileAt(20, (old) => {
    old.prepare("INSERT INTO relay_cursor (environment, relay_url, last_seq) VALUES ('test', 'https://relay.example', 7)").run();
  });
  const db = track(openDatabase(path));
  expect(db.prepare('SELECT last_seq, last_received_at FROM relay_cursor').get()).toEqual({ last_seq: 7, last_received_at: null });
});
