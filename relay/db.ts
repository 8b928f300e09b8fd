/**
 * The relay's SQLite file: the durable event log. better-sqlite3, WAL, synchronous=FULL set
 * explicitly on every open (better-sqlite3 leaves WAL databases at NORMAL, which can lose the
 * last commits on power loss), STRICT tables, migrations by PRAGMA user_version.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const DB_FILE_NAME = 'relay.sqlite';

/** Each entry moves the schema from version i to i+1. */
const MIGRATIONS: readonly string[] = [
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
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
