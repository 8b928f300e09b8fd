/**
 * Helpers for migration tests (as Signal Desktop's `updateToVersion` and `insertData`): bring a database
 * to the schema a user on an older version has, put that user's rows in, then migrate further and look.
 */
import { afterEach } from 'vitest';
import Database from 'better-sqlite3';
import type { Db, Migration } from '../../shared/sqlite.js';
import { migrate } from '../../shared/sqlite.js';

/** Returns a maker of in-memory databases that the calling test file closes after each test. */
export function inMemoryDatabases(): () => Db {
  const open: Db[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
  });
  return () => {
    const db = new Database(':memory:');
    open.push(db);
    return db;
  };
}

/** Applies the migrations of `migrations` up to `version` (and no further) to `db`. */
export function migrateTo(db: Db, migrations: readonly Migration[], version: number): void {
  if (!migrations.some((m) => m.version === version)) throw new Error(`No migration has version ${version}`);
  migrate(db, migrations, { upTo: version, tooNew: (found, known) => new Error(`schema ${found} is newer than ${known}`) });
}

/** Inserts one row given as `{ column: value }`. */
export function insertRow(db: Db, table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row);
  db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(row);
}
