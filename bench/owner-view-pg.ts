/**
 * bench:owner-view on PostgreSQL: one merchant's events written by the server itself (generate_series,
 * in chunks, each its own transaction), through the real `events` table, each chunk summed into `owner_hourly`
 * by the schema's relay_owner_add, as an import is (equal to what relay_commit writes: pg-owner-summary.test.ts).
 * The same mix as the SQLite bench:
 * 3 tills, 6 cashiers, 3 networks, one in ten failed, spread evenly over the last `days` days.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { addMerchant, migratePg, openPgPool, PgOwnerView } from '../relay/store/pg/index.js';
import { PgCluster } from '../test/support/pg-cluster.js';

const FILL = `
INSERT INTO events (merchant_id, seq, reference, client_reference, environment, key_id, received_at, webhook_created_at,
                    transaction_json, first_timestamp, latest_timestamp)
SELECT $1, i + 1, 'TX_' || i, 'till:' || i, 'live', 'pk_live_Bench0001', at, at,
  json_build_object(
    'reference', 'TX_' || i, 'clientReference', 'till:' || i, 'status', CASE WHEN ok THEN 'SUCCESS' ELSE 'FAILED' END,
    'amount', to_char(a / 100.0, 'FM999999990.00'),
    'fee', to_char(CASE WHEN ok THEN a / 100 ELSE 0 END / 100.0, 'FM999999990.00'),
    'net', to_char(CASE WHEN ok THEN a - a / 100 ELSE 0 END / 100.0, 'FM999999990.00'),
    'currency', 'GHS',
    'customer', json_build_object('msisdn', '2332' || lpad((i % 100000000)::text, 8, '0'),
                                  'network', (ARRAY['MTN', 'VODAFONE', 'AIRTELTIGO'])[i % 3 + 1]),
    'description', 'Counter sale',
    'metadata', json_build_object('till', 'till-' || i % 3, 'tillName', 'Till ' || i % 3, 'cashierId', 'c-' || i % 6,
                                  'cashier', 'Cashier ' || i % 6),
    'completedAt', at)::text,
  0, 0
FROM (
  SELECT i, i % 10 <> 0 AS ok, 100 + i % 5000 AS a,
    to_char(to_timestamp(($2::bigint + floor(i::numeric / $3 * ($4::bigint - $2::bigint))) / 1000.0) AT TIME ZONE 'UTC',
            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
  FROM generate_series($5::bigint, $6::bigint - 1) AS i
) AS s`;

export type PgBench = { view: PgOwnerView; fillSeconds: number; close(): Promise<void> };

/** A database (the given URL, or a throwaway cluster's) holding `events` events of `merchant`. */
export async function pgOwnerBench(options: {
  databaseUrl?: string;
  merchant: string;
  events: number;
  start: number;
  now: number;
}): Promise<PgBench> {
  const cluster = options.databaseUrl ? null : await PgCluster.create();
  let pool: pg.Pool | null = null;
  try {
    const url = options.databaseUrl ?? (await cluster!.createDatabase('owner_bench'));
    pool = await openPgPool(url, 2);
    const client = await pool.connect();
    try {
      await migratePg(client);
    } finally {
      client.release();
    }
    await addMerchant(pool, options.merchant);
    const t0 = performance.now();
    const filler = await pool.connect();
    try {
      await filler.query('SET statement_timeout = 0'); // the relay's pool bounds statements; this fill is long on purpose
      for (let from = 0; from < options.events; from += 100_000) {
        const to = Math.min(options.events, from + 100_000);
        await filler.query(FILL, [options.merchant, options.start, options.events, options.now, from, to]);
        await filler.query(
          'SELECT relay_owner_add(merchant_id, environment, transaction_json, received_at) FROM events WHERE merchant_id = $1 AND seq > $2 ORDER BY seq',
          [options.merchant, from],
        );
      }
    } finally {
      filler.release();
    }
    await pool.query('UPDATE merchants SET last_seq = $2 WHERE id = $1', [options.merchant, options.events]);
    await pool.query('VACUUM ANALYZE events');
    await pool.query('VACUUM ANALYZE owner_hourly');
    const fillSeconds = (performance.now() - t0) / 1000;
    const opened = pool;
    return {
      view: new PgOwnerView(opened),
      fillSeconds,
      close: async () => {
        await opened.end();
        await cluster?.destroy();
      },
    };
  } catch (err) {
    await pool?.end();
    await cluster?.destroy();
    throw err;
  }
}
