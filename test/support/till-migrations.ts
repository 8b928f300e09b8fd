/**
 * The till's migration tests' fixtures (test/unit/core/storage/migrations*.test.ts): till databases in temp
 * files at the schema a user of an older version has, closed and removed after each test, and the rows and
 * looks those tests share.
 */
import { afterEach } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../electron/core/storage/database.js';
import { MIGRATIONS } from '../../electron/core/storage/migrations/index.js';
import { migrateTo } from './migrations.js';

/** Makers of till databases that the calling test file closes and removes after each test. */
export function tillDatabases(): { file: () => string; track: (db: Db) => Db; tillAt: (version: number) => Db } {
  const dirs: string[] = [];
  const open: Db[] = [];
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const file = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'momo-mig-'));
    dirs.push(dir);
    return join(dir, 'till.db');
  };
  const track = (db: Db): Db => {
    open.push(db);
    return db;
  };
  /** A till database at `version`, as a user of that version has it. */
  const tillAt = (version: number): Db => {
    const db = track(new Database(file()));
    migrateTo(db, MIGRATIONS, version);
    return db;
  };
  return { file, track, tillAt };
}

export const tables = (db: Db) =>
  (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
export const isStrict = (db: Db, table: string) =>
  (db.prepare('SELECT strict FROM pragma_table_list WHERE name = ?').get(table) as { strict: number }).strict === 1;
export const version = (db: Db) => db.pragma('user_version', { simple: true });

/** A row of `transactions` with every column a schema from version 2 on has (values overridable). */
export const transaction = (reference: string, values: Record<string, unknown> = {}) => ({
  environment: 'test',
  reference,
  client_reference: null,
  status: 'SUCCESS',
  amount: 100,
  fee: 2,
  net: 98,
  msisdn: '233',
  network: 'SANDBOX',
  description: '',
  till_id: 'other',
  completed_at: 1,
  local_date: '2026-01-01',
  received_at: 1,
  ...values,
});
