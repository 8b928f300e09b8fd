/**
 * The owner's view: the hourly summary and the viewer links. The summary was kept by a trigger on `events`
 * (reading each event's stored JSON, in the commit's transaction) until migration 7 gave it to the committer;
 * this file keeps that trigger's SQL, which `rebuildOwnerSummary` still uses: the same rules, read from the
 * stored JSON (json_valid: the receiver refuses JSON deeper than SQLite's JSON functions read). The events
 * already in the log are summed once, as the trigger would have. Idempotent (IF NOT EXISTS; the summary
 * rebuilt from the events): a database set back to an older version may already hold these tables.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../../../../shared/sqlite.js';
import { SUMMARY_INSERT, SUMMARY_UPSERT } from '../owner-view-sqlite.js';

/** A text field of the transaction's metadata, or '' when absent or not text (bounded: outside text). */
const metaText = (field: string, max: number) =>
  `CASE WHEN json_type(NEW.transaction_json, '$.metadata.${field}') = 'text'
     THEN substr(json_extract(NEW.transaction_json, '$.metadata.${field}'), 1, ${max}) ELSE '' END`;
const pesewas = (field: string) => `coalesce(CAST(replace(json_extract(NEW.transaction_json, '$.${field}'), '.', '') AS INTEGER), 0)`;

/** The summary row of one event (NEW): amounts are exactly two places on the wire, so dropping the point gives pesewas. */
const SUMMARY_VALUES = `
  NEW.environment,
  coalesce(CAST(strftime('%s', json_extract(NEW.transaction_json, '$.completedAt')) AS INTEGER),
           CAST(strftime('%s', NEW.received_at) AS INTEGER), 0) / 3600,
  ${metaText('till', 64)}, ${metaText('tillName', 40)}, ${metaText('cashierId', 64)}, ${metaText('cashier', 40)},
  substr(coalesce(json_extract(NEW.transaction_json, '$.customer.network'), ''), 1, 32),
  coalesce(json_extract(NEW.transaction_json, '$.status') = 'SUCCESS', 0),
  coalesce(json_extract(NEW.transaction_json, '$.status') = 'FAILED', 0),
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('amount')} ELSE 0 END,
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('fee')} ELSE 0 END,
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('net')} ELSE 0 END`;

/**
 * Sums the whole log again from the stored JSON with this migration's SQL (the tests compare the committer's
 * rows with it). WHERE: SQLite's upsert-from-SELECT syntax.
 */
export function rebuildOwnerSummary(db: Database.Database): void {
  db.exec('DELETE FROM owner_hourly');
  db.exec(`${SUMMARY_INSERT} SELECT ${SUMMARY_VALUES.replaceAll('NEW.', 'e.')} FROM events e
    WHERE json_valid(e.transaction_json) ORDER BY e.seq ${SUMMARY_UPSERT}`);
}

export const migration: Migration = {
  version: 5,
  name: "owner's view: hourly summary (kept by a trigger, in the commit's transaction) and viewer links",
  up: (db) => {
    db.exec(`
    CREATE TABLE IF NOT EXISTS owner_hourly (
      environment TEXT NOT NULL, hour INTEGER NOT NULL,
      till_id TEXT NOT NULL, till_name TEXT NOT NULL, cashier_id TEXT NOT NULL, cashier_name TEXT NOT NULL, network TEXT NOT NULL,
      succeeded INTEGER NOT NULL, failed INTEGER NOT NULL, gross INTEGER NOT NULL, fees INTEGER NOT NULL, net INTEGER NOT NULL,
      PRIMARY KEY (environment, hour, till_id, cashier_id, network)
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS events_owner_summary AFTER INSERT ON events WHEN json_valid(NEW.transaction_json) BEGIN
      ${SUMMARY_INSERT} VALUES (${SUMMARY_VALUES}) ${SUMMARY_UPSERT};
    END;
    CREATE TABLE IF NOT EXISTS owner_links (
      id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      label TEXT NOT NULL, time_zone TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL,
      last_used_at TEXT, revoked_at TEXT
    ) STRICT;`);
    rebuildOwnerSummary(db);
  },
};
