/** One test per migration of the simulator's database. */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MIGRATIONS as SANDBOX_MIGRATIONS } from '../../../sandbox/db.js';
import { insertRow, migrateTo } from '../../support/migrations.js';

const open: Database.Database[] = [];
function memory(): Database.Database {
  const db = new Database(':memory:');
  open.push(db);
  return db;
}
afterEach(() => {
  for (const db of open.splice(0)) db.close();
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
