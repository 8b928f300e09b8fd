/**
 * The owner's hourly summary on a real PostgreSQL, as the store writes it (relay_commit with the summary
 * rows Node worked out, store/owner-summary.ts; migration 9):
 * - a repeat of a pruned event is never summed a second time (the summary counts an insert relay_commit
 *   keeps, never one it takes back);
 * - for every kind of transaction, what the commit sums is exactly what migration 7's SQL
 *   (relay_owner_add, which imports still use) sums from the stored JSON;
 * - a commit with several deliveries of one till, cashier and hour names it by its last non-empty name;
 * - a version-8 database keeps its summary through the upgrade.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { expect, it } from 'vitest';
import type { ApplyOutcome, TenantDelivery } from '../../../../../relay/store/index.js';
import { addMerchant, migratePg, openPgPool, PgStore } from '../../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';

const OLD = '2026-01-01T09:00:00.000Z';
const NEW = '2026-11-20T09:00:00.000Z';
const CUTOFF = '2026-06-01T00:00:00.000Z';

type Tx = Record<string, unknown>;

function delivery(reference: string, tx: Tx, receivedAt = NEW): TenantDelivery {
  return {
    merchantId: 'MCH_one',
    reference,
    clientReference: `till:${reference}`,
    environment: 'live',
    keyId: 'pk_live_Summary0001',
    receivedAt,
    webhookCreatedAt: receivedAt,
    transactionJson: JSON.stringify({ reference, ...tx }),
    timestamp: 1_800_000_000,
    arrivedAt: 0,
  };
}

const sale = (amount: string, meta: Tx = { till: 'T1', tillName: 'Front', cashierId: 'C1', cashier: 'Ama' }): Tx => ({
  status: 'SUCCESS',
  amount,
  fee: '0.10',
  net: '12.40',
  completedAt: '2026-11-20T10:15:00.000Z',
  customer: { network: 'MTN' },
  metadata: meta,
});

function submit(store: PgStore, d: TenantDelivery): Promise<ApplyOutcome> {
  return new Promise((resolve, reject) => store.enqueue(d, { settle: (err, outcome) => (err ? reject(err) : resolve(outcome!)) }));
}

const SUMMARY_SQL = `SELECT environment, hour::text, till_id, till_name, cashier_id, cashier_name, network,
  succeeded::int, failed::int, gross::text, fees::text, net::text FROM owner_hourly
  WHERE merchant_id = 'MCH_one' ORDER BY environment, hour, till_id, cashier_id, network`;

describePg('relay on PostgreSQL: the owner summary written by relay_commit', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  async function setUp() {
    const url = await cluster().createDatabase();
    const pool = await openPgPool(url, 2);
    open.push({ close: () => pool.end() });
    await addMerchant(pool, 'MCH_one');
    const store = await PgStore.open({ databaseUrl: url, masterKey: randomBytes(32), maxBatch: 64, catchUpMs: 200, log: () => {} });
    open.push(store);
    return { pool, store };
  }

  it('a repeat of a pruned event is answered as a repeat and not summed again', async () => {
    const { pool, store } = await setUp();
    expect((await submit(store, delivery('A', sale('12.50'), OLD))).kind).toBe('accepted');
    expect((await submit(store, delivery('B', sale('12.50'), OLD))).kind).toBe('accepted');
    expect(await store.prune(CUTOFF, 10)).toMatchObject([{ count: 2 }]);
    const repeat = await submit(store, delivery('A', sale('12.50'), NEW));
    expect(repeat).toMatchObject({ kind: 'duplicate', seq: 1 });
    const { rows } = await pool.query(SUMMARY_SQL);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ succeeded: 2, gross: '2500', fees: '20', net: '2480' });
    // And a new event after it is summed once.
    expect((await submit(store, delivery('C', sale('1.25')))).kind).toBe('accepted');
    expect((await pool.query(SUMMARY_SQL)).rows[0]).toMatchObject({ succeeded: 3, gross: '2625' });
  });

  it('a commit names each group by its last non-empty till and cashier name, in delivery order', async () => {
    const { pool, store } = await setUp();
    const meta = (tillName: string, cashier: string) => ({ till: 'T1', tillName, cashierId: 'C1', cashier });
    // Enqueued in one turn: one group, one relay_commit.
    const all = Promise.all([
      submit(store, delivery('A', sale('1.00', meta('Front', 'Ama')))),
      submit(store, delivery('B', sale('2.00', meta('Counter', '')))),
      submit(store, delivery('C', sale('3.00', meta('', '')))),
      submit(store, delivery('A', sale('1.00', meta('Front', 'Ama')))),
    ]);
    expect((await all).map((o) => o.kind)).toEqual(['accepted', 'accepted', 'accepted', 'duplicate']);
    const { rows } = await pool.query(SUMMARY_SQL);
    expect(rows).toEqual([expect.objectContaining({ till_name: 'Counter', cashier_name: 'Ama', succeeded: 3, gross: '600' })]);
  });

  it('sums exactly what the stored JSON gives through migration 7 (relay_owner_add), for any transaction', async () => {
    const { pool, store } = await setUp();
    // PostgreSQL's jsonb holds no U+0000 (and the receiver refuses control characters anyway).
    const str = fc.string({ maxLength: 80, unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));
    const text = fc.oneof(str, fc.constant(''), fc.integer(), fc.constant(null));
    const amount = fc.oneof(
      fc
        .tuple(fc.bigInt({ min: 0n, max: 9_999_999_999_999n }), fc.integer({ min: 0, max: 99 }))
        .map(([c, p]) => `${c}.${String(p).padStart(2, '0')}`),
      fc.constantFrom('12.5', '1e3', '-1.00', '', '12.345'),
      fc.integer(),
    );
    const when = fc.oneof(
      fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('2026-11-20T10:15:00+02:00', '2026-11-20T23:59:59.999-05:30', 'yesterday', ''),
      fc.constant(undefined),
    );
    const tx = fc.record(
      {
        status: fc.constantFrom('SUCCESS', 'FAILED', 'PENDING', 'REVERSED', 7),
        amount,
        fee: amount,
        net: amount,
        completedAt: when,
        // The wire schema makes the network text (shared/wire/transaction.ts).
        customer: fc.oneof(fc.record({ network: str }), fc.constant(null)),
        metadata: fc.oneof(fc.record({ till: text, tillName: text, cashierId: text, cashier: text }), fc.constant(null)),
      },
      { requiredKeys: [] },
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(tx, { minLength: 1, maxLength: 12 }), async (txs) => {
        await pool.query('DELETE FROM owner_hourly');
        const first = n;
        await Promise.all(txs.map((t) => submit(store, delivery(`R${n++}`, t))));
        const byCommit = (await pool.query(SUMMARY_SQL)).rows;
        await pool.query('DELETE FROM owner_hourly');
        await pool.query(
          `SELECT relay_owner_add(merchant_id, environment, transaction_json, received_at) FROM events
           WHERE merchant_id = 'MCH_one' AND seq > $1 ORDER BY seq`,
          [first],
        );
        expect(byCommit).toEqual((await pool.query(SUMMARY_SQL)).rows);
      }),
      { numRuns: 40 },
    );
  });

  it('migration 9 keeps the summary a version-8 database had, and sums on from there', async () => {
    const url = await cluster().createDatabase();
    const client = new pg.Client(url);
    await client.connect();
    open.push({ close: () => client.end() });
    await migratePg(client, 8);
    await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_one', 'log-one')");
    const v8 = delivery('OLD1', sale('5.00'));
    await client.query('SELECT * FROM relay_commit($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      'MCH_one',
      ['live'],
      [v8.reference],
      [v8.clientReference],
      [v8.keyId],
      [v8.receivedAt],
      [v8.webhookCreatedAt],
      [v8.transactionJson],
      [v8.timestamp],
    ]);
    expect(await migratePg(client)).toBe(8);
    expect((await client.query(SUMMARY_SQL)).rows[0]).toMatchObject({ succeeded: 1, gross: '500' });
    const triggers = await client.query("SELECT tgname FROM pg_trigger WHERE tgrelid = 'events'::regclass AND NOT tgisinternal");
    expect(triggers.rows).toEqual([]);
    const store = await PgStore.open({ databaseUrl: url, masterKey: randomBytes(32), maxBatch: 64, catchUpMs: 200, log: () => {} });
    open.push(store);
    expect(await submit(store, delivery('NEW1', sale('2.50')))).toMatchObject({ kind: 'accepted', seq: 2 });
    expect((await client.query(SUMMARY_SQL)).rows[0]).toMatchObject({ succeeded: 2, gross: '750' });
  });
});
