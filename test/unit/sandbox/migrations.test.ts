/** One test per migration of the simulator's database. */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS as SANDBOX_MIGRATIONS } from '../../../sandbox/db.js';
import { inMemoryDatabases, insertRow, migrateTo } from '../../support/migrations.js';

const memory = inMemoryDatabases();

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
