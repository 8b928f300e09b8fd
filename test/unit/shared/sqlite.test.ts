/** The one open-and-migrate helper of the till, the relay and the sandbox. */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkMigrations,
  latestVersion,
  migrate,
  MIGRATION_HISTORY,
  openDatabase,
  type Db,
  type Migration,
} from '../../../shared/sqlite.js';
import { MigrationHistoryError } from '../../../shared/migration-history.js';
import { DamagedDatabaseError } from '../../../shared/sqlite-file.js';
import { openDatabase as openTillDatabase } from '../../../electron/core/storage/database.js';
import { openDb as openSandboxDb } from '../../../sandbox/db.js';

const dirs: string[] = [];
const open: Db[] = [];
function memory(): Db {
  const db = new Database(':memory:');
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tooNew = (found: number, known: number) => new Error(`newer: ${found} > ${known}`);
const notes: Migration[] = [
  { version: 1, name: 'notes', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT' },
  { version: 2, name: 'a first note', up: (db) => db.prepare("INSERT INTO notes (text) VALUES ('hello')").run() },
  { version: 3, name: 'broken', up: 'ALTER TABLE notes ADD COLUMN text TEXT' },
];

describe('migrate', () => {
  it('applies entries in order up to the version asked, SQL or function, recording each in user_version', () => {
    const db = memory();
    migrate(db, notes, { tooNew, upTo: 2 });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'hello' }]);
  });

  it('rolls a failed migration back whole and names it', () => {
    const db = memory();
    migrate(db, notes, { tooNew, upTo: 2 });
    expect(() => migrate(db, notes, { tooNew })).toThrow(/Migration 3 \(broken\) failed: duplicate column name: text/);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
  });

  it('refuses a database that is ahead of the list, untouched', () => {
    const db = memory();
    db.pragma('user_version = 9');
    expect(() => migrate(db, notes.slice(0, 2), { tooNew })).toThrow('newer: 9 > 2');
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'notes'").get()).toEqual({ n: 0 });
  });

  it('refuses a list whose versions are not 1, 2, 3… in order', () => {
    expect(() => checkMigrations([notes[0] as Migration, { ...(notes[1] as Migration), version: 3 }])).toThrow(
      /"a first note" has version 3; entry 2 must have version 2/,
    );
    expect(latestVersion(notes)).toBe(3);
    expect(latestVersion([])).toBe(0);
  });
});

/** Notes with a history from version 3 on (the first two applied before it kept one). */
const kept: Migration[] = [
  notes[0] as Migration,
  notes[1] as Migration,
  { version: 3, name: 'history', up: MIGRATION_HISTORY },
  { version: 4, name: 'a second note', up: (db) => db.prepare("INSERT INTO notes (text) VALUES ('again')").run() },
];
const recorded = (db: Db) =>
  db.prepare('SELECT version, name, applied_at IS NOT NULL AS timed FROM schema_migrations ORDER BY version').all();
/** The history `kept` leaves, with whether each version's time is known (1) or it came before the history (0). */
const history = (...timed: number[]) => kept.map(({ version, name }, i) => ({ version, name, timed: timed[i] }));

describe('migrate: the history', () => {
  it('records each migration by version and name from the one that makes the table, those before it too', () => {
    const db = memory();
    migrate(db, kept, { tooNew });
    expect(recorded(db)).toEqual(history(1, 1, 1, 1));
  });

  it('backfills the versions a database had before it with no time, and keeps no history before the table exists', () => {
    const db = memory();
    migrate(db, kept, { tooNew, upTo: 2 });
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'schema_migrations'").get()).toEqual({ n: 0 });
    migrate(db, kept, { tooNew });
    expect(recorded(db)).toEqual(history(0, 0, 1, 1));
    expect(db.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'hello' }, { text: 'again' }]);
  });

  it('refuses, untouched, a database whose recorded names or versions are not the list', () => {
    const refusal = (sql: string, upTo = 3) => {
      const db = memory();
      migrate(db, kept, { tooNew, upTo });
      db.exec(sql);
      const history = () =>
        db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'schema_migrations'").get()
          ? db.prepare('SELECT * FROM schema_migrations ORDER BY version').all()
          : 'none';
      const before = history();
      let error: unknown;
      try {
        migrate(db, kept, { tooNew, database: 'notes.db' });
      } catch (caught) {
        error = caught;
      }
      expect(db.pragma('user_version', { simple: true })).toBe(upTo);
      expect(history()).toEqual(before);
      expect(error).toBeInstanceOf(MigrationHistoryError);
      return (error as Error).message;
    };
    expect(refusal("UPDATE schema_migrations SET name = 'old notes' WHERE version = 1")).toMatch(
      /^notes\.db records migration 1 as "old notes", but this build's migration 1 is "notes"\. .*nothing was changed\. Open it with the build that migrated it, or restore a backup made by this build\. \(Developers: never edit or renumber a shipped migration; add the next one\.\)$/,
    );
    expect(refusal("INSERT INTO schema_migrations (version, name) VALUES (5, 'elsewhere')")).toMatch(
      /records migration 5 \("elsewhere"\), which this build does not have \(it has 1 to 4\)/,
    );
    expect(refusal("INSERT INTO schema_migrations (version, name) VALUES (4, 'a second note')")).toMatch(
      /records migration 4 \("a second note"\) although it says it is at version 3/,
    );
    expect(refusal('DELETE FROM schema_migrations WHERE version = 2')).toMatch(
      /has no record of migration 2 although it says it is at version 3/,
    );
    expect(refusal('DROP TABLE schema_migrations')).toMatch(/has no migration history although it says it is at version 3/);
  });

  it('checks a list without a history migration only by its version', () => {
    const db = memory();
    migrate(db, kept, { tooNew });
    migrate(db, [...notes.slice(0, 2), { version: 3, name: 'other', up: 'SELECT 1' }, kept[3] as Migration], { tooNew });
    expect(db.pragma('user_version', { simple: true })).toBe(4);
  });
});

describe('openDatabase', () => {
  it('opens in WAL with the synchronous level asked for, read back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-sqlite-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'nested', 'x.db'), {
      migrations: notes.slice(0, 1),
      synchronous: 'NORMAL',
      tooNew,
      ifDamaged: 'Restore it.',
    });
    open.push(db);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});

/** Overwrites bytes of a file: the header (at 0) or pages further in. */
function overwrite(file: string, at: number, length: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(length, 0x5a), 0, length, at);
  closeSync(fd);
}

describe('openDatabase: private files and damaged ones', () => {
  it('creates the folder 0700 and the database 0600, for the till and the sandbox alike', () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-sqlite-'));
    dirs.push(dir);
    openTillDatabase(join(dir, 'till', 'till.db')).close();
    openSandboxDb(join(dir, 'sandbox')).close();
    for (const [folder, file] of [
      ['till', 'till.db'],
      ['sandbox', 'sandbox.sqlite'],
    ] as const) {
      expect(statSync(join(dir, folder)).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, folder, file)).mode & 0o777).toBe(0o600);
    }
  });

  it('names a damaged file and says what to do, whether its header or its pages are hit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-sqlite-'));
    dirs.push(dir);
    const file = join(dir, 'till.db');
    const db = openTillDatabase(file);
    db.exec('CREATE TABLE filler (x TEXT) STRICT');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('y'.repeat(200));
    })();
    db.close();
    overwrite(file, Math.floor(statSync(file).size / 2 / 4096) * 4096, 3 * 4096);
    expect(() => openTillDatabase(file)).toThrow(DamagedDatabaseError);
    expect(() => openTillDatabase(file)).toThrow(/till\.db is damaged.*restore till\.db from a backup/s);
    overwrite(file, 0, 100);
    expect(() => openTillDatabase(file)).toThrow(/till\.db is damaged/);
    const sandboxDir = join(dir, 'sandbox');
    openSandboxDb(sandboxDir).close();
    overwrite(join(sandboxDir, 'sandbox.sqlite'), 0, 100);
    expect(() => openSandboxDb(sandboxDir)).toThrow(/sandbox\.sqlite is damaged.*restore sandbox\.sqlite/s);
  });
});
