/**
 * The owner's hourly summary on SQLite, now written by the committer (EventLog.apply) from the row
 * store/owner-summary.ts works out, not by a trigger re-reading the JSON (migration 7):
 * - for any wire-valid transaction, the committer's rows equal what migration 5's SQL sums from the
 *   stored JSON (rebuildOwnerSummary), names and all;
 * - repeats and repeats of pruned events add nothing;
 * - migration 7 drops the trigger and keeps what was summed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { EventLog, MIGRATIONS, rebuildOwnerSummary, SqlitePruner } from '../../../../../relay/store/sqlite/index.js';
import type { Delivery } from '../../../../../relay/store/index.js';
import { inMemoryDatabases, insertRow, migrateTo } from '../../../../support/migrations.js';
import { frontAmaRow } from '../../../../support/owner-summary-sales.js';

const memory = inMemoryDatabases();

function openLog(): { db: Database.Database; log: EventLog } {
  const db = memory();
  migrateTo(db, MIGRATIONS, MIGRATIONS[MIGRATIONS.length - 1]!.version);
  return { db, log: new EventLog(db) };
}

function delivery(reference: string, tx: Record<string, unknown>, receivedAt = '2026-11-21T10:00:00.000Z'): Delivery {
  return {
    reference,
    clientReference: null,
    environment: 'live',
    keyId: 'pk_live_Unit00003',
    receivedAt,
    webhookCreatedAt: receivedAt,
    transactionJson: JSON.stringify({ reference, ...tx }),
    timestamp: 1000,
    arrivedAt: 0,
  };
}

const SALE = {
  status: 'SUCCESS',
  amount: '12.50',
  fee: '0.10',
  net: '12.40',
  completedAt: '2026-11-21T10:05:00.000Z',
  customer: { network: 'MTN' },
  metadata: { till: 'T1', tillName: 'Front', cashierId: 'C1', cashier: 'Ama' },
};

const summary = (db: Database.Database) =>
  db.prepare('SELECT * FROM owner_hourly ORDER BY environment, hour, till_id, cashier_id, network').all();

describe("relay SQLite: the owner's summary written by the committer", () => {
  it('sums exactly what migration 5 sums from the stored JSON, for any wire-valid transaction', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 70, unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
      fc.integer(),
      fc.constant(null),
    );
    const amount = fc
      .tuple(fc.bigInt({ min: 0n, max: 9_999_999_999_999n }), fc.integer({ min: 0, max: 99 }))
      .map(([c, p]) => `${c}.${String(p).padStart(2, '0')}`);
    const tx = fc.record(
      {
        status: fc.constantFrom('SUCCESS', 'FAILED', 'PENDING'),
        amount,
        fee: amount,
        net: amount,
        completedAt: fc.oneof(
          fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom('2026-11-21T10:15:00+02:00', '2026-11-21T23:59:59.999-05:30'),
        ),
        customer: fc.record({ network: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\u0000')) }),
        metadata: fc.oneof(fc.record({ till: text, tillName: text, cashierId: text, cashier: text }), fc.constant(null)),
      },
      { requiredKeys: ['status', 'completedAt'] },
    );
    fc.assert(
      fc.property(fc.array(tx, { minLength: 1, maxLength: 15 }), (txs) => {
        const { db, log } = openLog();
        db.transaction(() => txs.forEach((t, i) => log.apply(delivery(`R${i}`, t))))();
        const byCommitter = summary(db);
        rebuildOwnerSummary(db);
        expect(byCommitter).toEqual(summary(db));
      }),
      { numRuns: 60 },
    );
  });

  it('a group commit (applyGroup) writes the rows that one upsert per event writes, names and large sums included', () => {
    const name = fc.constantFrom('', 'Front', 'Back', 'Ama', 'Kofi');
    // Up to 40 events on 2-4 keys: sums pass Number.MAX_SAFE_INTEGER, odd ones then inexact as doubles.
    const big = fc.constantFrom('9999999999999.99', '9999999999999.99', '5000000000000.01', '0.01');
    const tx = fc.record({
      status: fc.constantFrom('SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILED'),
      amount: big,
      fee: big,
      net: big,
      completedAt: fc.constant('2026-11-21T10:05:00.000Z'),
      customer: fc.record({ network: fc.constant('MTN') }),
      metadata: fc.record({ till: fc.constantFrom('T1', 'T2'), tillName: name, cashierId: fc.constantFrom('C1', 'C1', ''), cashier: name }),
    });
    fc.assert(
      fc.property(fc.array(tx, { minLength: 1, maxLength: 40 }), fc.array(fc.nat(39), { maxLength: 5 }), (txs, repeats) => {
        const deliveries = txs.map((t, i) => delivery(`R${i}`, t));
        // Repeats of events of the same group add nothing, as one by one.
        for (const r of repeats) if (r < deliveries.length) deliveries.push(deliveries[r]!);
        const one = openLog();
        one.db.transaction(() => deliveries.forEach((d) => one.log.apply(d)))();
        const group = openLog();
        const outcomes = group.db.transaction(() => group.log.applyGroup(deliveries))();
        expect(outcomes.map((o) => o.kind)).toEqual(deliveries.map((_, i) => (i < txs.length ? 'accepted' : 'duplicate')));
        expect(summary(group.db)).toEqual(summary(one.db));
        rebuildOwnerSummary(group.db);
        expect(summary(group.db)).toEqual(summary(one.db));
      }),
      { numRuns: 80 },
    );
  });

  it('a group keeps sums past Number.MAX_SAFE_INTEGER exact (SQLite adds them as 64-bit integers)', () => {
    const { db, log } = openLog();
    const huge = { ...SALE, amount: '9999999999999.99', fee: '0.01', net: '9999999999999.98' };
    db.transaction(() => log.applyGroup(Array.from({ length: 11 }, (_, i) => delivery(`H${i}`, huge))))();
    const row = db.prepare('SELECT succeeded, gross, fees, net FROM owner_hourly').safeIntegers(true).get();
    // 11 × 999,999,999,999,999 pesewas: odd and above 2^53, so no double holds it.
    expect(row).toEqual({ succeeded: 11n, gross: 10_999_999_999_999_989n, fees: 11n, net: 10_999_999_999_999_978n });
  });

  it('a group writes one summary row per key, the last non-empty name winning', () => {
    const { db, log } = openLog();
    const at = (till: string, tillName: string, cashier: string) => ({ ...SALE, metadata: { till, tillName, cashierId: 'C1', cashier } });
    db.transaction(() =>
      log.applyGroup([
        delivery('G1', at('T1', 'Front', 'Ama')),
        delivery('G2', at('T1', 'Counter', '')),
        delivery('G3', at('T1', '', 'Akua')),
        delivery('G4', at('T2', 'Back', 'Ama')),
      ]),
    )();
    expect(summary(db)).toMatchObject([
      { till_id: 'T1', till_name: 'Counter', cashier_name: 'Akua', succeeded: 3, gross: 3750, fees: 30, net: 3720 },
      { till_id: 'T2', till_name: 'Back', cashier_name: 'Ama', succeeded: 1, gross: 1250 },
    ]);
  });

  it('adds nothing for a repeat, a conflicting repeat or a repeat of a pruned event', () => {
    const { db, log } = openLog();
    expect(log.apply(delivery('A', SALE, '2026-01-01T00:00:00.000Z')).kind).toBe('accepted');
    expect(log.apply(delivery('B', SALE)).kind).toBe('accepted');
    expect(log.apply(delivery('B', SALE)).kind).toBe('duplicate');
    expect(log.apply(delivery('B', { ...SALE, status: 'FAILED' })).kind).toBe('conflict');
    expect(new SqlitePruner(db).prune('2026-06-01T00:00:00.000Z', 10)).toMatchObject({ count: 1 });
    expect(log.apply(delivery('A', SALE)).kind).toBe('duplicate');
    expect(summary(db)).toEqual([
      {
        environment: 'live',
        ...frontAmaRow('2026-11-21T10:05:00.000Z'),
        succeeded: 2,
        failed: 0,
        gross: 2500,
        fees: 20,
        net: 2480,
      },
    ]);
  });

  it('migration 7 drops the summary trigger and keeps the rows summed before it', () => {
    const db = memory();
    migrateTo(db, MIGRATIONS, 6);
    insertRow(db, 'events', {
      reference: 'OLD',
      environment: 'live',
      key_id: 'pk_live_x',
      received_at: '2026-11-21T10:00:00.000Z',
      webhook_created_at: '2026-11-21T10:00:00.000Z',
      transaction_json: JSON.stringify({ reference: 'OLD', ...SALE }),
      first_timestamp: 1,
      latest_timestamp: 1,
    });
    expect(summary(db)).toMatchObject([{ succeeded: 1, gross: 1250 }]);
    migrateTo(db, MIGRATIONS, 7);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all()).toEqual([]);
    expect(summary(db)).toMatchObject([{ succeeded: 1, gross: 1250 }]);
    new EventLog(db).apply(delivery('NEW', SALE));
    expect(summary(db)).toMatchObject([{ succeeded: 2, gross: 2500 }]);
  });
});
