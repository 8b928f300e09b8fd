/** One test per migration of the relay's SQLite event log (migration 2, the log id, is tested on upgrade in test/integration/relay/store/sqlite/log-id.test.ts). */
import { describe, expect, it } from 'vitest';
import { EventLog, MIGRATIONS as RELAY_MIGRATIONS } from '../../../../../relay/store/sqlite/index.js';
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

describe('relay migration 8: no second index of references', () => {
  it('drops events_reference, and no statement of the event log then reads the whole log', () => {
    const db = memory();
    migrateTo(db, RELAY_MIGRATIONS, 7);
    const indexes = () =>
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'").all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
    expect(indexes()).toContain('events_reference');
    migrateTo(db, RELAY_MIGRATIONS, 8);
    expect(indexes()).not.toContain('events_reference');
    // Every statement EventLog prepares, planned as SQLite would run it: a look-up by reference alone
    // (getByReference without an environment) must still read an index.
    const prepared: string[] = [];
    const recording = new Proxy(db, {
      get: (target, name) =>
        name === 'prepare' ? (sql: string) => (prepared.push(sql), target.prepare(sql)) : Reflect.get(target, name, target),
    });
    new EventLog(recording);
    const plans = prepared.map((sql) => {
      const params = Array.from(sql.matchAll(/\?/g), () => 'x');
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      return `${sql}\n${rows.map((r) => r.detail).join('\n')}`;
    });
    expect(
      plans.some((p) => /environment IN \('live', 'test'\) AND reference = \?/.test(p) && /USING INDEX sqlite_autoindex_events_1/.test(p)),
    ).toBe(true);
    for (const plan of plans) expect(plan).not.toMatch(/\bSCAN events\b/);
  });
});
