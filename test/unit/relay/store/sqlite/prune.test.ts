/**
 * Retention's batches on SQLite (store/sqlite/prune.ts) and the pass that drives them
 * (store/retention.ts): oldest first, at most `limit` a batch, never past the first event still kept,
 * each pruned reference kept with its final-state hash so a repeat stays a repeat.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog, openRelayDatabase, SqlitePruner } from '../../../../../relay/store/sqlite/index.js';
import { Retention, stateHash, type Delivery, type PrunedRange } from '../../../../../relay/store/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open() {
  const dir = mkdtempSync(join(tmpdir(), 'relay-prune-'));
  dirs.push(dir);
  const db = openRelayDatabase(dir);
  return { db, log: new EventLog(db), pruner: new SqlitePruner(db) };
}

function delivery(reference: string, receivedAt: string, tx: Record<string, unknown> = {}): Delivery {
  return {
    reference,
    clientReference: null,
    environment: 'live',
    keyId: 'pk_live_Unit00002',
    receivedAt,
    webhookCreatedAt: receivedAt,
    transactionJson: JSON.stringify({ reference, status: 'SUCCESS', amount: '5.00', ...tx }),
    timestamp: 1000,
    arrivedAt: 0,
  };
}

const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-11-01T00:00:00.000Z';
const CUTOFF = '2026-06-01T00:00:00.000Z';

describe('SQLite retention batches', () => {
  it('prunes the oldest first, at most `limit` a batch, and stops at the first event still kept', () => {
    const { db, log, pruner } = open();
    for (let i = 1; i <= 7; i++) log.apply(delivery(`TX_old_${i}`, OLD));
    log.apply(delivery('TX_new_1', NEW));
    // Received "old" after a newer one (a clock step): kept until what precedes it goes.
    log.apply(delivery('TX_old_late', OLD));
    const batches = [pruner.prune(CUTOFF, 3), pruner.prune(CUTOFF, 3), pruner.prune(CUTOFF, 3), pruner.prune(CUTOFF, 3)];
    expect(batches.map((b) => b && [b.fromSeq, b.throughSeq, b.count])).toEqual([[1, 3, 3], [4, 6, 3], [7, 7, 1], null]);
    expect(log.prunedThrough()).toBe(7);
    expect(log.rowsAfter(0, 100).map((r) => r.seq)).toEqual([8, 9]);
    expect(log.lastSeq()).toBe(9);
    const kept = db.prepare('SELECT reference, seq, transaction_sha256 FROM pruned_references ORDER BY seq').all() as Array<{
      reference: string;
      seq: number;
      transaction_sha256: string;
    }>;
    expect(kept.map((k) => k.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(kept[0]?.transaction_sha256).toBe(stateHash(delivery('TX_old_1', OLD).transactionJson));
    db.close();
  });

  it('a log pruned empty still knows its last sequence, and numbers on after it', () => {
    const { db, log, pruner } = open();
    for (let i = 1; i <= 3; i++) log.apply(delivery(`TX_${i}`, OLD));
    expect(pruner.prune(CUTOFF, 10)).toMatchObject({ count: 3 });
    expect(log.lastSeq()).toBe(3);
    expect(log.apply(delivery('TX_4', NEW))).toMatchObject({ kind: 'accepted', seq: 4 });
    db.close();
  });

  it('a repeat of a pruned event is a duplicate (keys in another order too); another final state is a conflict', () => {
    const { db, log, pruner } = open();
    log.apply(delivery('TX_1', OLD, { fee: '0.10' }));
    pruner.prune(CUTOFF, 10);
    const reordered = {
      ...delivery('TX_1', NEW),
      transactionJson: JSON.stringify({ fee: '0.10', amount: '5.00', status: 'SUCCESS', reference: 'TX_1' }),
    };
    expect(log.apply(reordered)).toMatchObject({ kind: 'duplicate', seq: 1 });
    expect(log.apply(delivery('TX_1', NEW, { fee: '0.20' }))).toMatchObject({ kind: 'conflict', seq: 1 });
    expect(log.rowsAfter(0, 10)).toEqual([]);
    expect(db.prepare("SELECT deliveries FROM pruned_references WHERE reference = 'TX_1'").get()).toEqual({ deliveries: 2 });
    db.close();
  });

  it('sets aside an event whose stored JSON cannot be read, names it, and prunes the rest of the batch', () => {
    const { db, log, pruner } = open();
    for (let i = 1; i <= 4; i++) log.apply(delivery(`TX_${i}`, OLD));
    db.prepare('UPDATE events SET transaction_json = ? WHERE seq = 2').run('{"reference":"TX_2","status":');
    const batch = pruner.prune(CUTOFF, 10);
    expect(batch).toMatchObject({ fromSeq: 1, throughSeq: 4, count: 4, setAside: [{ seq: 2, reason: expect.stringMatching(/JSON/) }] });
    expect(log.rowsAfter(0, 10)).toEqual([]);
    expect(log.prunedThrough()).toBe(4);
    expect(db.prepare('SELECT seq, reference, transaction_json FROM events_set_aside').all()).toEqual([
      { seq: 2, reference: 'TX_2', transaction_json: '{"reference":"TX_2","status":' },
    ]);
    // Its reference is still known: a repeat is no new event.
    expect(log.apply(delivery('TX_2', NEW))).toMatchObject({ seq: 2 });
    expect(log.rowsAfter(0, 10)).toEqual([]);
    db.close();
  });
});

const range = (merchantId: string, fromSeq: number, throughSeq: number, setAside: PrunedRange['setAside'] = []): PrunedRange => ({
  merchantId,
  fromSeq,
  throughSeq,
  count: throughSeq - fromSeq + 1,
  setAside,
});

describe('Retention passes', () => {
  it("runs batches until one prunes nothing, with the cutoff N days back, and logs each merchant's range", async () => {
    const calls: Array<[string, number]> = [];
    const left = [[range('MCH_a', 1, 5)], [range('MCH_a', 6, 10)], [range('MCH_a', 11, 12)]];
    const lines: Array<Record<string, unknown>> = [];
    const now = Date.parse('2026-11-25T00:00:00.000Z');
    const retention = new Retention(
      { prune: async (before, limit) => (calls.push([before, limit]), left.shift() ?? []) },
      { days: 90, batch: 5, pauseMs: 0, now: () => now, log: (l) => lines.push(l) },
    );
    expect(await retention.runPass()).toBe(12);
    expect(calls).toHaveLength(4);
    expect(calls[0]).toEqual(['2026-08-27T00:00:00.000Z', 5]);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'events_pruned', merchantId: 'MCH_a', fromSeq: 1, throughSeq: 12, count: 12, retentionDays: 90 }),
    ]);
  });

  it("logs each event set aside with its merchant; one merchant's failure stops neither the pass nor the others", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const failing = { ...range('MCH_bad', 0, -1), error: 'lock timeout' };
    const left = [
      [range('MCH_a', 1, 3, [{ seq: 2, reason: 'unsupported Unicode escape sequence' }]), failing, range('MCH_b', 7, 8)],
      [failing, range('MCH_b', 9, 9)],
      [failing],
    ];
    const retention = new Retention(
      { prune: async () => left.shift() ?? [] },
      { days: 1, pauseMs: 0, now: Date.now, log: (l) => lines.push(l) },
    );
    expect(await retention.runPass()).toBe(6);
    expect(
      lines.map(({ level, msg, merchantId, seq, fromSeq, throughSeq, count, setAside }) => ({
        level,
        msg,
        merchantId,
        seq,
        fromSeq,
        throughSeq,
        count,
        setAside,
      })),
    ).toEqual([
      { level: 'warn', msg: 'prune_set_aside', merchantId: 'MCH_a', seq: 2 },
      { level: 'warn', msg: 'prune_failed', merchantId: 'MCH_bad' },
      { level: 'info', msg: 'events_pruned', merchantId: 'MCH_a', fromSeq: 1, throughSeq: 3, count: 3, setAside: 1 },
      { level: 'info', msg: 'events_pruned', merchantId: 'MCH_b', fromSeq: 7, throughSeq: 9, count: 3, setAside: 0 },
    ]);
  });

  it('0 days keeps every event: no pass runs', async () => {
    let called = false;
    const retention = new Retention({ prune: async () => ((called = true), []) }, { days: 0, now: Date.now, log: () => {} });
    retention.start();
    expect(await retention.runPass()).toBe(0);
    await retention.stop();
    expect(called).toBe(false);
  });

  it('a failing batch is logged and the pass ends (the next one tries again)', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const retention = new Retention(
      { prune: async () => Promise.reject(new Error('database is locked')) },
      { days: 1, pauseMs: 0, now: Date.now, log: (l) => lines.push(l) },
    );
    expect(await retention.runPass()).toBe(0);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', msg: 'prune_failed', error: 'database is locked' })]);
  });
});
