/**
 * What `import --from-sqlite` accepts from a SQLite file: every row must be an event this relay could
 * itself have stored from a verified delivery. The file is outside input (a copy, maybe altered):
 * unchecked, a row whose transaction is not JSON would make its merchant's reads fail for good, and
 * raw text in it would go out to tills as it is (a forged `id:` frame in a live stream). Each row is checked against the
 * webhook's transaction schema and the character rules, and its transaction is written again from the
 * parsed value, never copied as text.
 */
import { hasInvisibleCharacters, visibleText } from '../../../../shared/characters.js';
import { environmentOfKey, isoDateTimeSchema, PUBLIC_KEY_ID, transactionSchema } from '../../../../shared/wire/index.js';
import { describeZodError } from '../../../../shared/zod-error.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../index.js';

/** A row of the SQLite relay's events table, as read (types unchecked: the file may say anything). */
export type SqliteEventRow = Record<string, unknown>;

/** A checked row, ready for the tenant's events table. */
export type ImportedEvent = {
  reference: string;
  client_reference: string | null;
  environment: 'test' | 'live';
  key_id: string;
  received_at: string;
  webhook_created_at: string;
  transaction_json: string;
  first_timestamp: number;
  latest_timestamp: number;
  deliveries: number;
};

function isCount(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
}

function checkIdentifier(value: unknown, column: string, nullable: boolean): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== 'string' || value.length > 128 || (!nullable && value.length === 0))
    return `${column} must be text of 1-128 characters`;
  if (hasInvisibleCharacters(value)) return `${column} holds control, invisible or format characters`;
  return null;
}

/** The row's own columns: identifiers, environment, key, instants and counts. */
function checkColumns(row: SqliteEventRow): string | null {
  const problem = checkIdentifier(row.reference, 'reference', false) ?? checkIdentifier(row.client_reference, 'client_reference', true);
  if (problem) return problem;
  if (row.environment !== 'test' && row.environment !== 'live') return 'environment must be test or live';
  if (typeof row.key_id !== 'string' || !PUBLIC_KEY_ID.test(row.key_id)) return 'key_id must be a pk_test_… or pk_live_… id';
  if (environmentOfKey(row.key_id) !== row.environment)
    return `key_id is a ${environmentOfKey(row.key_id)} key but environment is ${row.environment}`;
  for (const column of ['received_at', 'webhook_created_at'] as const) {
    if (!isoDateTimeSchema.safeParse(row[column]).success) return `${column} must be an ISO 8601 date and time`;
  }
  if (!isCount(row.first_timestamp, 0) || !isCount(row.latest_timestamp, 0))
    return 'first_timestamp and latest_timestamp must be Unix seconds';
  if (!isCount(row.deliveries, 1)) return 'deliveries must be a whole number, at least 1';
  return null;
}

/** The stored transaction: JSON, not too deep, the webhook's schema, agreeing with the row's columns. */
function checkTransaction(row: SqliteEventRow): { json: string } | string {
  const text = row.transaction_json;
  if (typeof text !== 'string') return 'transaction_json must be text';
  if (nestedDeeperThan(Buffer.from(text, 'utf8'), MAX_JSON_DEPTH)) return `transaction_json is nested deeper than ${MAX_JSON_DEPTH} levels`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'transaction_json is not valid JSON';
  }
  const parsed = transactionSchema.safeParse(value);
  if (!parsed.success) return `transaction_json is not a webhook's transaction: ${describeZodError(parsed.error)}`;
  const tx = parsed.data;
  if (tx.reference !== row.reference) return 'transaction_json.reference differs from the reference column';
  if (tx.clientReference !== row.client_reference) return 'transaction_json.clientReference differs from the client_reference column';
  if ((tx.sandbox === true) !== (row.environment === 'test')) return 'transaction_json.sandbox does not match the environment column';
  // Written again from the parsed value: whatever text surrounded it in the file is not carried over.
  return { json: JSON.stringify(tx) };
}

/** The row checked and normalised, or what is wrong with it (without its personal data). */
export function checkImportRow(row: SqliteEventRow): ImportedEvent | string {
  const problem = checkColumns(row);
  if (problem) return problem;
  const tx = checkTransaction(row);
  if (typeof tx === 'string') return tx;
  return {
    reference: row.reference as string,
    client_reference: row.client_reference as string | null,
    environment: row.environment as 'test' | 'live',
    key_id: row.key_id as string,
    received_at: row.received_at as string,
    webhook_created_at: row.webhook_created_at as string,
    transaction_json: tx.json,
    first_timestamp: row.first_timestamp as number,
    latest_timestamp: row.latest_timestamp as number,
    deliveries: row.deliveries as number,
  };
}

/** How a refused row is named: its place in the file, and its reference shown safely. */
export function rowName(row: SqliteEventRow): string {
  const seq = typeof row.seq === 'number' || typeof row.seq === 'bigint' ? String(row.seq) : '?';
  const reference = typeof row.reference === 'string' ? ` (reference "${visibleText(row.reference.slice(0, 128))}")` : '';
  return `row seq ${seq}${reference}`;
}
