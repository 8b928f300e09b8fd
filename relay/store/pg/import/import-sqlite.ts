/**
 * `relay import --from-sqlite <data dir> --merchant MCH_…`: copies a single-merchant relay's event
 * log into a tenant, in its order, in one transaction. The merchant's counter row is locked for the
 * duration, so live commits of that merchant wait and then number after the copy (no gap, no
 * clash). Events whose (environment, reference) the tenant already holds are skipped, so running it
 * twice copies nothing twice; one whose final state differs from the stored one is reported, row by row,
 * and the stored one kept. Every row must be signed by one of the merchant's own keys (added first with
 * `key add`): a file from another shop is refused whole, so no shop reads another's payments. Each
 * import writes an audit line. When something was copied the merchant's log gets a new log id: every
 * till reads it again from the start, and a till stores a final result once per reference, so
 * nothing counts twice; an import that copies nothing keeps the log id.
 *
 * The file is outside input: every row is checked first (import-rows.ts) and one bad row refuses the
 * whole file, named, with nothing written.
 */
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { canonicalJson, differingFields, newLogId } from '../../index.js';
import { DB_FILE_NAME } from '../../sqlite/index.js';
import { checkImportRow, rowName, type ImportedEvent, type SqliteEventRow } from './import-rows.js';
import { audit, cliActor, TenantError } from '../admin/index.js';

const CHUNK = 1_000;
/** Refused rows named at most, so a file of junk gives a readable error. */
const NAMED_ROWS = 5;

/** A row whose reference the merchant holds with another final state (field names only: values may be personal data). */
export type ImportConflict = { row: string; environment: string; fields: string[] };
export type ImportResult = { copied: number; skipped: number; conflicts: ImportConflict[]; fromSeq: number; toSeq: number; logId: string };

/** Rows signed by keys that are not the merchant's: the file is refused whole, the first rows named. */
function refuseForeign(merchantId: string, dataDir: string, foreign: { count: number; named: string[]; keys: Set<string> }): TenantError {
  const more = foreign.count > foreign.named.length ? `\n  … and ${foreign.count - foreign.named.length} more` : '';
  return new TenantError(
    `Nothing imported: ${foreign.count} row${foreign.count === 1 ? '' : 's'} of ${join(dataDir, DB_FILE_NAME)} ${foreign.count === 1 ? 'was' : 'were'} signed by a key that is not one of ${merchantId}'s (${[...foreign.keys].join(', ')}):\n` +
      `${foreign.named.join('\n')}${more}\nImport a shop's file into that shop, after adding its keys (key add --merchant ${merchantId}).`,
  );
}

function sameFinalState(a: string, b: string): string[] {
  const x = JSON.parse(a) as Record<string, unknown>;
  const y = JSON.parse(b) as Record<string, unknown>;
  return canonicalJson(x) === canonicalJson(y) ? [] : differingFields(x, y);
}

const SELECT_ROWS = `SELECT seq, reference, client_reference, environment, key_id, received_at, webhook_created_at, transaction_json,
  first_timestamp, latest_timestamp, deliveries FROM events ORDER BY seq`;

async function openSqlite(dataDir: string): Promise<Database.Database> {
  const file = join(dataDir, DB_FILE_NAME);
  if (!existsSync(file)) throw new TenantError(`No relay database in ${dataDir} (expected ${DB_FILE_NAME})`);
  // Loaded here, not at the top: the other CLI commands never pay for the SQLite addon.
  const { default: Sqlite } = await import('better-sqlite3');
  const sqlite = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    // One snapshot for both passes, even while the old relay still writes to the file.
    sqlite.exec('BEGIN');
    sqlite.prepare(SELECT_ROWS);
    return sqlite;
  } catch (err) {
    sqlite.close();
    throw new TenantError(`${file} is not a relay database this relay can read: ${(err as Error).message}`);
  }
}

function* readRows(sqlite: Database.Database): Generator<SqliteEventRow> {
  yield* sqlite.prepare(SELECT_ROWS).iterate() as IterableIterator<SqliteEventRow>;
}

/** Every row checked before anything is written: a file with one bad row is refused whole, the bad rows named. */
function checkFile(sqlite: Database.Database, dataDir: string): void {
  const refused: string[] = [];
  let count = 0;
  for (const row of readRows(sqlite)) {
    const checked = checkImportRow(row);
    if (typeof checked === 'string') {
      count++;
      if (refused.length < NAMED_ROWS) refused.push(`  ${rowName(row)}: ${checked}`);
    }
  }
  if (count === 0) return;
  const more = count > refused.length ? `\n  … and ${count - refused.length} more` : '';
  throw new TenantError(
    `Nothing imported: ${count} row${count === 1 ? '' : 's'} of ${join(dataDir, DB_FILE_NAME)} ${count === 1 ? 'is' : 'are'} not an event this relay would store:\n${refused.join('\n')}${more}`,
  );
}

export async function importFromSqlite(pool: pg.Pool, dataDir: string, merchantId: string): Promise<ImportResult> {
  const sqlite = await openSqlite(dataDir);
  try {
    checkFile(sqlite, dataDir);
    return await copyRows(pool, sqlite, merchantId, dataDir);
  } finally {
    sqlite.close();
  }
}

async function copyRows(pool: pg.Pool, sqlite: Database.Database, merchantId: string, dataDir: string): Promise<ImportResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const locked = await client.query<{ last_seq: string; log_id: string }>(
      'SELECT last_seq, log_id FROM merchants WHERE id = $1 FOR UPDATE',
      [merchantId],
    );
    if (!locked.rows[0]) throw new TenantError(`No merchant ${merchantId} (add it first: momo-relay merchant add --id ${merchantId})`);
    const fromSeq = Number(locked.rows[0].last_seq);
    const keys = await client.query<{ public_id: string }>('SELECT public_id FROM service_keys WHERE merchant_id = $1', [merchantId]);
    const own = new Set(keys.rows.map((k) => k.public_id));
    const held = await client.query<{ environment: string; reference: string; transaction_json: string }>(
      'SELECT environment, reference, transaction_json FROM events WHERE merchant_id = $1',
      [merchantId],
    );
    const seen = new Map(held.rows.map((r) => [`${r.environment} ${r.reference}`, r.transaction_json]));
    const foreign = { count: 0, named: [] as string[], keys: new Set<string>() };
    const conflicts: ImportConflict[] = [];
    let seq = fromSeq;
    let skipped = 0;
    let batch: Array<ImportedEvent & { seq: number }> = [];
    for (const row of readRows(sqlite)) {
      const event = checkImportRow(row);
      // Checked in the first pass, and read from the same snapshot.
      if (typeof event === 'string') throw new TenantError(`Nothing imported: ${rowName(row)}: ${event}`);
      if (!own.has(event.key_id)) {
        foreign.count++;
        foreign.keys.add(event.key_id);
        if (foreign.named.length < NAMED_ROWS) foreign.named.push(`  ${rowName(row)}`);
        continue;
      }
      const key = `${event.environment} ${event.reference}`;
      const stored = seen.get(key);
      if (stored !== undefined) {
        const fields = sameFinalState(stored, event.transaction_json);
        if (fields.length > 0) conflicts.push({ row: rowName(row), environment: event.environment, fields });
        else skipped++;
        continue;
      }
      seen.set(key, event.transaction_json);
      batch.push({ ...event, seq: ++seq });
      if (batch.length === CHUNK) {
        await insertChunk(client, merchantId, batch);
        batch = [];
      }
    }
    if (foreign.count > 0) throw refuseForeign(merchantId, dataDir, foreign);
    if (batch.length > 0) await insertChunk(client, merchantId, batch);
    const detail = { from: dataDir, copied: seq - fromSeq, skipped, conflicts: conflicts.length, fromSeq, toSeq: seq };
    await audit(client, cliActor(), { action: 'merchant.import', merchantId, detail });
    if (seq === fromSeq) {
      // Nothing copied: the log keeps its identity, and no till has to read it again.
      await client.query('COMMIT');
      return { copied: 0, skipped, conflicts, fromSeq, toSeq: seq, logId: locked.rows[0].log_id };
    }
    // The owner's summary of what was copied (relay_commit sums live deliveries; imports insert directly).
    await client.query(
      'SELECT relay_owner_add(merchant_id, environment, transaction_json, received_at) FROM events WHERE merchant_id = $1 AND seq > $2 ORDER BY seq',
      [merchantId, fromSeq],
    );
    const logId = newLogId();
    await client.query('UPDATE merchants SET last_seq = $2, log_id = $3 WHERE id = $1', [merchantId, seq, logId]);
    await client.query("SELECT pg_notify('relay_events', $1)", [`${merchantId} ${seq}`]);
    await client.query('COMMIT');
    return { copied: seq - fromSeq, skipped, conflicts, fromSeq, toSeq: seq, logId };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

async function insertChunk(client: pg.PoolClient, merchantId: string, rows: Array<ImportedEvent & { seq: number }>): Promise<void> {
  const col = <K extends keyof (ImportedEvent & { seq: number })>(k: K) => rows.map((r) => r[k]);
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
