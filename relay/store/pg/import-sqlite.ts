/**
 * `relay import --from-sqlite <data dir> --merchant MCH_…`: copies a single-merchant relay's event
 * log into a tenant, in its order, in one transaction. The merchant's counter row is locked for the
 * duration, so live commits of that merchant wait and then number after the copy (no gap, no
 * clash). Events whose (environment, reference) the tenant already holds are skipped, so running it
 * twice copies nothing twice. The merchant's log then gets a new log id: every till reads it again
 * from the start, and a till stores a final result once per reference, so nothing counts twice.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { newLogId } from '../index.js';
import { DB_FILE_NAME } from '../sqlite/index.js';
import { TenantError } from './tenants.js';

type SqliteEvent = {
  reference: string;
  client_reference: string | null;
  environment: string;
  key_id: string;
  received_at: string;
  webhook_created_at: string;
  transaction_json: string;
  first_timestamp: number;
  latest_timestamp: number;
  deliveries: number;
};

const CHUNK = 1_000;

export type ImportResult = { copied: number; skipped: number; fromSeq: number; toSeq: number; logId: string };

export async function importFromSqlite(pool: pg.Pool, dataDir: string, merchantId: string): Promise<ImportResult> {
  const file = join(dataDir, DB_FILE_NAME);
  if (!existsSync(file)) throw new TenantError(`No relay database in ${dataDir} (expected ${DB_FILE_NAME})`);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query<{ last_seq: string }>('SELECT last_seq FROM merchants WHERE id = $1 FOR UPDATE', [merchantId]);
    if (!locked.rows[0]) throw new TenantError(`No merchant ${merchantId} (add it first: relay merchant add --id ${merchantId})`);
    const fromSeq = Number(locked.rows[0].last_seq);
    const held = await client.query<{ environment: string; reference: string }>(
      'SELECT environment, reference FROM events WHERE merchant_id = $1',
      [merchantId],
    );
    const seen = new Set(held.rows.map((r) => `${r.environment} ${r.reference}`));
    let seq = fromSeq;
    let skipped = 0;
    let batch: Array<SqliteEvent & { seq: number }> = [];
    const rows = sqlite
      .prepare(
        `SELECT reference, client_reference, environment, key_id, received_at, webhook_created_at, transaction_json,
           first_timestamp, latest_timestamp, deliveries FROM events ORDER BY seq`,
      )
      .iterate() as IterableIterator<SqliteEvent>;
    for (const row of rows) {
      const key = `${row.environment} ${row.reference}`;
      if (seen.has(key)) {
        skipped++;
        continue;
      }
      seen.add(key);
      batch.push({ ...row, seq: ++seq });
      if (batch.length === CHUNK) {
        await insertChunk(client, merchantId, batch);
        batch = [];
      }
    }
    if (batch.length > 0) await insertChunk(client, merchantId, batch);
    const logId = newLogId();
    await client.query('UPDATE merchants SET last_seq = $2, log_id = $3 WHERE id = $1', [merchantId, seq, logId]);
    await client.query("SELECT pg_notify('relay_events', $1)", [`${merchantId} ${seq}`]);
    await client.query('COMMIT');
    return { copied: seq - fromSeq, skipped, fromSeq, toSeq: seq, logId };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
    sqlite.close();
  }
}

async function insertChunk(client: pg.PoolClient, merchantId: string, rows: Array<SqliteEvent & { seq: number }>): Promise<void> {
  const col = <K extends keyof (SqliteEvent & { seq: number })>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO events (merchant_id, seq, reference, client_reference, environment, key_id, received_at, webhook_created_at,
       transaction_json, first_timestamp, latest_timestamp, deliveries)
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::bigint[], $11::bigint[], $12::integer[])`,
    [
      merchantId,
      col('seq'),
      col('reference'),
      col('client_reference'),
      col('environment'),
      col('key_id'),
      col('received_at'),
      col('webhook_created_at'),
      col('transaction_json'),
      col('first_timestamp'),
      col('latest_timestamp'),
      col('deliveries'),
    ],
  );
}
