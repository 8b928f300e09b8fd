/**
 * The relay's SQLite file: the durable event log. better-sqlite3, WAL, synchronous=FULL set
 * explicitly on every open (better-sqlite3 leaves WAL databases at NORMAL, which can lose the
 * last commits on power loss), STRICT tables, migrations by PRAGMA user_version.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE_NAME = 'relay.sqlite';

/** A new log identity: 16 random bytes, base64url (22 characters). */
export function newLogId(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * Each entry moves the schema from version i to i+1: SQL, or a function run inside the same
 * transaction (for values SQL cannot make, like the log id).
 */
const MIGRATIONS: ReadonlyArray<string | ((db: Database.Database) => void)> = [
  `
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
  // 2: the log's identity, made once with the database (a new or wiped data dir gets a new one), so a
  // till can tell "this is not the log my cursor points into" when sequence numbers start over.
  (db) => {
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
    db.prepare("INSERT INTO meta (key, value) VALUES ('log_id', ?)").run(newLogId());
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class RelayDatabaseError extends Error {
  override name = 'RelayDatabaseError';
}

export function openRelayDatabase(dataDir: string, options: { busyTimeoutMs?: number } = {}): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DB_FILE_NAME));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 1000))}`);
    const sync = db.pragma('synchronous', { simple: true });
    if (sync !== 2) throw new RelayDatabaseError(`PRAGMA synchronous is ${String(sync)}, expected 2 (FULL)`);
    migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new RelayDatabaseError(
      `The relay database is schema version ${version}, newer than this relay understands (${SCHEMA_VERSION}). ` +
        'Run a newer relay; this one will not touch it.',
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      const step = MIGRATIONS[v] as string | ((db: Database.Database) => void);
      if (typeof step === 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
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
