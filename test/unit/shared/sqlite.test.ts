/** The one open-and-migrate helper of the till, the relay and the sandbox. */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkMigrations, latestVersion, migrate, openDatabase, type Db, type Migration } from '../../../shared/sqlite.js';

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
