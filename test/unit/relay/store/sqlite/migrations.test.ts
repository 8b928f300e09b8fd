/** One test per migration of the relay's SQLite event log (migration 2, the log id, is tested on upgrade in test/integration/relay/store/sqlite/log-id.test.ts). */
import { describe, expect, it } from 'vitest';
import { MIGRATIONS as RELAY_MIGRATIONS } from '../../../../../relay/store/sqlite/index.js';
import { inMemoryDatabases, insertRow, migrateTo } from '../../../../support/migrations.js';

const memory = inMemoryDatabases();

describe('relay migration 1: the event log', () => {
  it('keeps one event per reference, numbered by seq, environment checked', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 1);
    const event = (reference: string, environment = 'live') => ({
      reference,
      environment,
      key_id: 'pk_live_x',
      received_at: '2026-01-01T00:00:00Z',
      webhook_created_at: '2026-01-01T00:00:00Z',
      transaction_json: '{}',
      first_timestamp: 1,
      latest_timestamp: 1,
    });
    insertRow(db, 'events', event('TX1'));
    insertRow(db, 'events', event('TX2'));
    expect(() => insertRow(db, 'events', event('TX1'))).toThrow(/UNIQUE/);
    expect(() => insertRow(db, 'events', event('TX3', 'staging'))).toThrow(/CHECK constraint/);
    expect(db.prepare('SELECT seq, reference, deliveries FROM events').all()).toEqual([
      { seq: 1, reference: 'TX1', deliveries: 1 },
      { seq: 2, reference: 'TX2', deliveries: 1 },
    ]);
  });
});
