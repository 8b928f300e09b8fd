/** One test per migration of the simulator's database, and its migrations folder. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS as SANDBOX_MIGRATIONS, openDb, SCHEMA_VERSION } from '../../../sandbox/db.js';
import { expectFolderListed, inMemoryDatabases, insertRow, migrateTo } from '../../support/migrations.js';

const memory = inMemoryDatabases();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('lists every file of its migrations folder, in order, one version each', async () => {
  await expectFolderListed(fileURLToPath(new URL('../../../sandbox/migrations', import.meta.url)), SANDBOX_MIGRATIONS);
});

describe('sandbox migration 1: merchants, keys, transactions, deliveries', () => {
  it('creates the STRICT tables with their checks and references', () => {
    const db = memory();
    db.pragma('foreign_keys = ON');
    migrateTo(db, SANDBOX_MIGRATIONS, 1);
    const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(names.map((r) => (r as { name: string }).name)).toEqual([
      'api_keys',
      'deliveries',
      'delivery_attempts',
      'merchants',
      'transactions',
    ]);
    insertRow(db, 'merchants', { id: 'MCH_A', name: 'Shop', status: 'APPROVED', created_at: 1 });
    expect(() => insertRow(db, 'merchants', { id: 'MCH_B', name: 'Shop', status: 'OPEN', created_at: 1 })).toThrow(/CHECK constraint/);
    const key = {
      public_id: 'pk_test_a',
      environment: 'test',
      secret_sha256: 'h',
      secret_encrypted: Buffer.from('x'),
      secret_last4: 'abcd',
      created_at: 1,
    };
    expect(() => insertRow(db, 'api_keys', { ...key, merchant_id: 'MCH_NONE' })).toThrow(/FOREIGN KEY/);
    insertRow(db, 'api_keys', { ...key, merchant_id: 'MCH_A' });
  });
});

describe('sandbox migration 2: the migration history', () => {
  it("upgrades a database from before it, its merchants kept, version 1 recorded under this build's name; a tampered one is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-mig-'));
    dirs.push(dir);
    const old = new Database(join(dir, 'sandbox.sqlite'));
    migrateTo(old, SANDBOX_MIGRATIONS, 1);
    insertRow(old, 'merchants', { id: 'MCH_A', name: 'Shop', status: 'APPROVED', created_at: 1 });
    old.close();
    const db = openDb(dir);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT id FROM merchants').all()).toEqual([{ id: 'MCH_A' }]);
    expect(db.prepare('SELECT version, name, applied_at IS NULL AS before FROM schema_migrations ORDER BY version').all()).toEqual([
      { version: 1, name: 'merchants, keys, transactions, deliveries and their attempts', before: 1 },
      { version: 2, name: 'migration history', before: 0 },
    ]);
    db.exec("UPDATE schema_migrations SET name = 'merchants' WHERE version = 1");
    db.close();
    expect(() => openDb(dir)).toThrow(
      /sandbox\.sqlite records migration 1 as "merchants", but this build's migration 1 is "merchants, keys/,
    );
  });
});
