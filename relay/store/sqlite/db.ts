/**
 * The relay's SQLite file: the durable event log, opened by shared/sqlite.ts (WAL, synchronous=FULL,
 * STRICT tables, the migrations listed in migrations/index.ts). To change the schema, add the next file there.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase } from '../../../shared/sqlite.js';
import { newLogId } from '../index.js';
import { DB_FILE_NAME } from './file-name.js';
import { MIGRATIONS } from './migrations/index.js';

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
