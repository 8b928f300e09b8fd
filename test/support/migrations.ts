/**
 * Helpers for migration tests (as Signal Desktop's `updateToVersion` and `insertData`): bring a database
 * to the schema a user on an older version has, put that user's rows in, then migrate further and look.
 */
import { afterEach, expect } from 'vitest';
import Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** A migrations folder's file: `NNNN-what-it-does.ts`. */
const MIGRATION_FILE = /^\d{4}(-[a-z0-9]+)+\.ts$/;

/**
 * Checks a database's migrations folder against the list its index exports: every file there but `others` is
 * `NNNN-what-it-does.ts`, numbered 1, 2, 3… with no gap, and exports as `migration` the very entry the list
 * holds at its place (so a file left out of the list, listed twice or out of order is caught).
 */
export async function expectFolderListed(
  folder: string,
  listed: ReadonlyArray<{ version: number; name: string }>,
  others: readonly string[] = ['index.ts'],
): Promise<void> {
  const files = readdirSync(folder)
    .filter((file) => !others.includes(file))
    .sort();
  expect(files.filter((file) => !MIGRATION_FILE.test(file))).toEqual([]);
  expect(files.map((file) => Number(file.slice(0, 4)))).toEqual(files.map((_, i) => i + 1));
  expect(listed.map((m) => m.version)).toEqual(files.map((_, i) => i + 1));
  for (const [i, file] of files.entries()) {
    const module = (await import(pathToFileURL(join(folder, file)).href)) as { migration?: unknown };
    expect(module.migration, file).toBe(listed[i]);
  }
}
