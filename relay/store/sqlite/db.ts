/**
 * The relay's SQLite file: the durable event log, opened by shared/sqlite.ts (WAL, synchronous=FULL,
 * STRICT tables, the migrations below). To change the schema, add the next `{ version, name, up }`.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { latestVersion, openDatabase, type Migration } from '../../../shared/sqlite.js';
import { newLogId } from '../index.js';
import { DB_FILE_NAME } from './file-name.js';
import { OWNER_LINK_REVOKER_MIGRATION, OWNER_SUMMARY_BY_COMMITTER_MIGRATION, OWNER_VIEW_MIGRATION } from './owner-view-sqlite.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log',
    up: `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    reference TEXT NOT NULL UNIQUE,
    client_reference TEXT,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    key_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    webhook_created_at TEXT NOT NULL,
    transaction_json TEXT NOT NULL,
    first_timestamp INTEGER NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL DEFAULT 1
  ) STRICT;
  CREATE INDEX events_client_reference ON events (client_reference, environment);
  CREATE INDEX events_environment_seq ON events (environment, seq);
  `,
  },
  {
    // The log's identity, made once with the database (a new or wiped data dir gets a new one), so a
    // till can tell "this is not the log my cursor points into" when sequence numbers start over.
    version: 2,
    name: 'log identity',
    up: (db) => {
      db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
      db.prepare("INSERT INTO meta (key, value) VALUES ('log_id', ?)").run(newLogId());
    },
  },
  {
    // The spec never says references are unique across environments, and a test delivery must not
    // block a live one. SQLite cannot drop a UNIQUE constraint, so the table is rebuilt; seq values
    // (and so the AUTOINCREMENT counter) are kept.
    version: 3,
    name: 'one event per (environment, reference)',
    up: `
  CREATE TABLE events_v3 (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    reference TEXT NOT NULL,
    client_reference TEXT,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    key_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    webhook_created_at TEXT NOT NULL,
    transaction_json TEXT NOT NULL,
    first_timestamp INTEGER NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL DEFAULT 1,
    UNIQUE (environment, reference)
  ) STRICT;
  INSERT INTO events_v3 SELECT seq, reference, client_reference, environment, key_id, received_at, webhook_created_at,
    transaction_json, first_timestamp, latest_timestamp, deliveries FROM events;
  DROP TABLE events;
  ALTER TABLE events_v3 RENAME TO events;
  CREATE INDEX events_reference ON events (reference);
  CREATE INDEX events_client_reference ON events (client_reference, environment);
  CREATE INDEX events_environment_seq ON events (environment, seq);
  `,
  },
  {
    // Retention (relay --retention-days): pruned events leave their reference behind, with the hash of
    // their final state, so a repeat is still known for ever (docs/provider-contract.md, "Retention").
    // meta.pruned_through: every sequence up to it is gone (tills behind it are told so).
    version: 4,
    name: 'retention: pruned references and the pruned-through mark',
    up: `
  CREATE TABLE pruned_references (
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    reference TEXT NOT NULL,
    seq INTEGER NOT NULL,
    transaction_sha256 TEXT NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL,
    PRIMARY KEY (environment, reference)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO meta (key, value) VALUES ('pruned_through', '0');
  `,
  },
  OWNER_VIEW_MIGRATION,
  OWNER_LINK_REVOKER_MIGRATION,
  OWNER_SUMMARY_BY_COMMITTER_MIGRATION,
  {
    // A look-up by reference alone reads the UNIQUE (environment, reference) index once per environment
    // (event-log.ts), so this second index of the references only cost every insert: its pages written
    // to the WAL at each commit, about a quarter of a group commit's time (docs/performance.md).
    version: 8,
    name: 'drop events_reference (the unique index answers look-ups by reference)',
    up: 'DROP INDEX events_reference',
  },
];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);

export class RelayDatabaseError extends Error {
  override name = 'RelayDatabaseError';
}

/**
 * Opens (creating and migrating) relay.sqlite, folder 0700 and files 0600. `check` runs SQLite's
 * quick_check first (the relay does once at start); a damaged file is a DamagedDatabaseError naming it.
 */
export function openRelayDatabase(dataDir: string, options: { busyTimeoutMs?: number; check?: boolean } = {}): Database.Database {
  return openDatabase(join(dataDir, DB_FILE_NAME), {
    migrations: MIGRATIONS,
    synchronous: 'FULL',
    busyTimeoutMs: options.busyTimeoutMs ?? 1000,
    check: options.check ?? false,
    ifDamaged:
      'Stop the relay, restore relay.sqlite from a backup, then give the log a new id ' +
      `(npm run relay -- log-id new --data ${dataDir}) so tills read it again from the start.`,
    tooNew: (found, known) =>
      new RelayDatabaseError(
        `The relay database is schema version ${found}, newer than this relay understands (${known}). ` +
          'Run a newer relay; this one will not touch it.',
      ),
  });
}

/** The log identity stored with the database (see migration 2). */
export function readLogId(db: Database.Database): string {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'log_id'").get() as { value: string } | undefined;
  if (!row) throw new RelayDatabaseError('The relay database has no log id (meta.log_id is missing)');
  return row.value;
}

/**
 * Gives the log a new identity (`npm run relay -- log-id new`, with the relay stopped): after restoring
 * a backup, so that tills which read past the backup's last sequence start again from 0 at once
 * instead of only when they notice their cursor is ahead.
 */
export function renewLogId(db: Database.Database): string {
  const logId = newLogId();
  db.prepare("UPDATE meta SET value = ? WHERE key = 'log_id'").run(logId);
  return logId;
}
