/**
 * Opening a program's SQLite file, one way for the till, the relay and the sandbox: WAL, `synchronous`
 * set explicitly on every open (better-sqlite3 leaves WAL databases at NORMAL) and read back, foreign
 * keys on, a busy time-out, then the migrations.
 *
 * Migrations are explicit `{ version, name, up }` entries, one file each in the program's `migrations/`
 * folder, numbered from 1 with no gap; `PRAGMA user_version` holds the last one applied. Each runs in its
 * own transaction with its version bump and its row in the history (`schema_migrations`: version, name,
 * when), once a migration of the database has made that table (`up: MIGRATION_HISTORY`; it records the
 * versions applied before it too). A database is refused untouched when it is from a newer version (a
 * version this program has no entry for) or when its history disagrees with the entries
 * (shared/migration-history.ts). Never edit or renumber a shipped migration: add the next entry.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { historyDisagreement, historyRefusal, MigrationHistoryError, type RecordedMigration } from './migration-history.js';
import { checkIntegrity, damaged, ensurePrivateDir, isDamage, restrictToOwner } from './sqlite-file.js';

export type Db = Database.Database;

export type Migration = {
  version: number;
  /** What it does, in a few words (shown when a migration fails). */
  name: string;
  /** SQL, or a function for what SQL cannot make (a random id); it runs inside the migration's transaction. */
  up: string | ((db: Db) => void);
};

export type OpenDatabaseOptions = {
  migrations: readonly Migration[];
  /** FULL where money is held (till, relay); NORMAL survives a killed process, not an OS crash. */
  synchronous: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
  /** Path of an Electron-built better_sqlite3.node (the Electron shell passes it; Node uses the default). */
  nativeBinding?: string;
  /** The error for a database written by a newer version of the program. */
  tooNew: (found: number, known: number) => Error;
  /** Tests: migrate only up to this version. */
  upTo?: number;
  /** What to do about a damaged file (said after its name). */
  ifDamaged: string;
  /** Run SQLite's quick_check before opening (once at a program's start: it reads the whole file). */
  check?: boolean;
};

const SYNCHRONOUS = { NORMAL: 1, FULL: 2 } as const;

/**
 * The `up` of the migration that gives a database its history: one row per migration applied, by version and
 * name, and when (Unix ms; NULL for the versions applied before the table was made). The runner writes it.
 */
export const MIGRATION_HISTORY = `
  CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY CHECK (version > 0),
    name TEXT NOT NULL,
    applied_at INTEGER
  ) STRICT`;

/**
 * Opens (creating and migrating) a database: its folder 0700 and its files 0600 (they hold customers'
 * numbers). A damaged file, found by the quick_check or by the first read, is a DamagedDatabaseError
 * that names it and says what to do.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions): Db {
  ensurePrivateDir(dirname(file));
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  // Checked on a connection of its own, so the one kept starts with nothing cached.
  if (options.check && existsSync(file)) withDamageNamed(file, options.ifDamaged, () => checkOnce(file, binding, options.ifDamaged));
  return withDamageNamed(file, options.ifDamaged, () => openAndMigrate(file, binding, options));
}

function checkOnce(file: string, binding: Database.Options, ifDamaged: string): void {
  const db = new Database(file, binding);
  try {
    checkIntegrity(db, file, ifDamaged);
  } finally {
    db.close();
  }
}

function withDamageNamed<T>(file: string, ifDamaged: string, open: () => T): T {
  try {
    return open();
  } catch (err) {
    if (isDamage(err)) throw damaged(file, (err as Error).message, ifDamaged);
    throw err;
  }
}

function openAndMigrate(file: string, binding: Database.Options, options: OpenDatabaseOptions): Db {
  const db = new Database(file, binding);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    const synchronous = db.pragma('synchronous', { simple: true });
    if (synchronous !== SYNCHRONOUS[options.synchronous]) {
      throw new Error(
        `PRAGMA synchronous is ${String(synchronous)}, expected ${SYNCHRONOUS[options.synchronous]} (${options.synchronous})`,
      );
    }
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    migrate(db, options.migrations, { ...options, database: file });
    restrictToOwner(file);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The version a full migration reaches. */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.at(-1)?.version ?? 0;
}

/**
 * Brings `db` up to `upTo` (default: the latest version); refuses a database that is ahead of the list or
 * whose recorded history disagrees with it (`database` names it in the refusal).
 */
export function migrate(
  db: Db,
  migrations: readonly Migration[],
  options: Pick<OpenDatabaseOptions, 'tooNew' | 'upTo'> & { database?: string },
): void {
  checkMigrations(migrations);
  const known = latestVersion(migrations);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > known) throw options.tooNew(current, known);
  checkHistory(db, migrations, current, options.database ?? 'The database');
  const target = options.upTo ?? known;
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue;
    try {
      db.transaction(() => {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
        recordHistory(db, migrations, migration.version, current);
      })();
    } catch (error) {
      throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** The version from which a database of these migrations keeps its history (none: it keeps none). */
function historyFrom(migrations: readonly Migration[]): number | undefined {
  return migrations.find((migration) => migration.up === MIGRATION_HISTORY)?.version;
}

function hasHistory(db: Db): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
}

/** Refuses a database whose history is missing where it should be, or disagrees with the migrations. */
function checkHistory(db: Db, migrations: readonly Migration[], current: number, database: string): void {
  const from = historyFrom(migrations);
  if (from === undefined) return;
  let disagreement: string | undefined;
  if (hasHistory(db)) {
    const recorded = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as RecordedMigration[];
    disagreement = historyDisagreement(recorded, migrations, current);
  } else if (current >= from) {
    disagreement = `has no migration history although it says it is at version ${current} (migration ${from} made it)`;
  }
  if (disagreement) throw new MigrationHistoryError(historyRefusal(database, disagreement));
}

/**
 * Records `version` in the history, once the database has one; the migration that makes the table records
 * every version before it too (`applied_at` NULL for those applied before this open: when is not known).
 */
function recordHistory(db: Db, migrations: readonly Migration[], version: number, before: number): void {
  if (!hasHistory(db)) return;
  const last = (db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  const insert = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const now = Date.now();
  for (let v = last + 1; v <= version; v++) insert.run(v, migrations[v - 1]!.name, v > before ? now : null);
}

/** A list whose versions are not 1, 2, 3… in order is a programming mistake: say which entry. */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration "${migration.name}" has version ${migration.version}; entry ${index + 1} must have version ${index + 1}`);
    }
  });
}
