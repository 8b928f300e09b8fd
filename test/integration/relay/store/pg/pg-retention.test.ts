/**
 * Retention's SQL on a real PostgreSQL cluster (store/pg/migrations/0006-retention.ts): relay_prune's batches
 * (oldest first, at most the limit, never past the first kept event, one merchant only, skipped while
 * another instance prunes that merchant), and relay_commit's answer to a repeat of a pruned event,
 * including one that races its own pruning (inserted, then taken back: no new event, no gap).
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { migratePg } from '../../../../../relay/store/pg/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';

const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-11-01T00:00:00.000Z';
const CUTOFF = '2026-06-01T00:00:00.000Z';

function commit(client: pg.ClientBase, merchant: string, refs: string[], receivedAt: string, state = 'SUCCESS') {
  const none = (value: unknown) => refs.map(() => value);
  const sql = 'SELECT * FROM relay_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)';
  return client.query<{ o_kind: string; o_seq: string }>(sql, [
    merchant,
    refs.map(() => 'live'),
    refs,
    refs.map(() => null),
    refs.map(() => 'pk_live_Ret00001'),
    refs.map(() => receivedAt),
    refs.map(() => receivedAt),
    refs.map((r) => JSON.stringify({ reference: r, status: state })),
    refs.map(() => 100),
    // The owner's summary rows (hour, till, till name, cashier, cashier name, network, counts, pesewas).
    none(493_000),
    ...[1, 2, 3, 4, 5].map(() => none('')),
    ...[1, 2, 3, 4, 5].map(() => none(0)),
  ]);
}

const kinds = (r: pg.QueryResult<{ o_kind: string; o_seq: string }>) => r.rows.map((x) => `${x.o_kind}:${x.o_seq}`);

describePg('relay on PostgreSQL: retention', () => {
  const cluster = usePgCluster();

  let url = '';
  async function connect() {
    url = await cluster().createDatabase();
    const client = new pg.Client(url);
    await client.connect();
    await migratePg(client);
    for (const id of ['MCH_one', 'MCH_two']) await client.query('INSERT INTO merchants (id, log_id) VALUES ($1, $2)', [id, `log-${id}`]);
    return client;
  }

  const prune = async (client: pg.ClientBase, merchant: string, limit: number) =>
    Number((await client.query<{ n: number }>('SELECT relay_prune($1, $2, $3) AS n', [merchant, CUTOFF, limit])).rows[0]?.n);

  it('prunes one merchant in batches, oldest first, stopping at the first event still kept', async () => {
    const client = await connect();
    try {
      await commit(client, 'MCH_one', ['A', 'B', 'C', 'D', 'E'], OLD);
      await commit(client, 'MCH_one', ['F'], NEW);
      await commit(client, 'MCH_one', ['G'], OLD);
      await commit(client, 'MCH_two', ['A'], OLD);
      expect([
        await prune(client, 'MCH_one', 2),
        await prune(client, 'MCH_one', 2),
        await prune(client, 'MCH_one', 2),
        await prune(client, 'MCH_one', 2),
      ]).toEqual([2, 2, 1, 0]);
      const left = await client.query("SELECT seq FROM events WHERE merchant_id = 'MCH_one' ORDER BY seq");
      expect(left.rows.map((r: { seq: string }) => Number(r.seq))).toEqual([6, 7]);
      expect((await client.query("SELECT pruned_through FROM event_retention WHERE merchant_id = 'MCH_one'")).rows).toEqual([
        { pruned_through: '5' },
      ]);
      expect((await client.query("SELECT count(*)::int AS n FROM events WHERE merchant_id = 'MCH_two'")).rows).toEqual([{ n: 1 }]);

      // Another instance pruning this merchant: skipped, not waited for.
      const other = new pg.Client(url);
      await other.connect();
      await other.query('BEGIN');
      await other.query("SELECT pg_advisory_xact_lock(hashtext('momo-relay-prune'), hashtext('MCH_two'))");
      expect(await prune(client, 'MCH_two', 10)).toBe(0);
      await other.query('ROLLBACK');
      await other.end();
      expect(await prune(client, 'MCH_two', 10)).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('answers a repeat of a pruned event as a duplicate and another state as a conflict, storing nothing and leaving no gap', async () => {
    const client = await connect();
    try {
      await commit(client, 'MCH_one', ['A', 'B'], OLD);
      expect(await prune(client, 'MCH_one', 10)).toBe(2);
      expect(kinds(await commit(client, 'MCH_one', ['A', 'C', 'B'], NEW))).toEqual(['duplicate:1', 'accepted:3', 'duplicate:2']);
      const conflict = await commit(client, 'MCH_one', ['A'], NEW, 'FAILED');
      expect(conflict.rows[0]).toMatchObject({ o_kind: 'conflict', o_seq: '1', o_json: null });
      expect(kinds(await commit(client, 'MCH_one', ['D'], NEW))).toEqual(['accepted:4']);
      const seqs = await client.query("SELECT seq FROM events WHERE merchant_id = 'MCH_one' ORDER BY seq");
      expect(seqs.rows.map((r: { seq: string }) => Number(r.seq))).toEqual([3, 4]);
      expect((await client.query("SELECT deliveries FROM pruned_references WHERE reference = 'A'")).rows).toEqual([{ deliveries: 2 }]);
    } finally {
      await client.end();
    }
  });

  it('a repeat committed while its event is being pruned is taken back and answered as a repeat', async () => {
    const client = await connect();
    const pruner = new pg.Client(url);
    await pruner.connect();
    try {
      await commit(client, 'MCH_one', ['A'], OLD);
      // The prune has deleted A (row locked) but not committed when the repeat arrives.
      await pruner.query('BEGIN');
      await pruner.query("SELECT relay_prune('MCH_one', $1, 10)", [CUTOFF]);
      const racing = commit(client, 'MCH_one', ['A'], NEW);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await pruner.query('COMMIT');
      expect(kinds(await racing)).toEqual(['duplicate:1']);
      expect((await client.query("SELECT count(*)::int AS n FROM events WHERE merchant_id = 'MCH_one'")).rows).toEqual([{ n: 0 }]);
      expect(kinds(await commit(client, 'MCH_one', ['B'], NEW))).toEqual(['accepted:2']);
    } finally {
      await pruner.end();
      await client.end();
    }
  });
});
