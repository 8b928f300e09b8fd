/**
 * Opening a program's SQLite file, one way for the till, the relay and the sandbox: WAL, `synchronous`
 * set explicitly on every open (better-sqlite3 leaves WAL databases at NORMAL) and read back, foreign
 * keys on, a busy time-out, then the migrations.
 *
 * Migrations are explicit `{ version, name, up }` entries, numbered from 1 with no gap; `PRAGMA
 * user_version` holds the last one applied. Each runs in its own transaction with its version bump. A
 * database from a newer version (a version this program has no entry for) is refused untouched. Never
 * edit a shipped migration: add the next entry.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
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
    migrate(db, options.migrations, options);
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

/** Brings `db` up to `upTo` (default: the latest version); refuses a database that is ahead of the list. */
export function migrate(db: Db, migrations: readonly Migration[], options: Pick<OpenDatabaseOptions, 'tooNew' | 'upTo'>): void {
  checkMigrations(migrations);
  const known = latestVersion(migrations);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > known) throw options.tooNew(current, known);
  const target = options.upTo ?? known;
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue;
    try {
      db.transaction(() => {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      })();
    } catch (error) {
      throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

/** A list whose versions are not 1, 2, 3… in order is a programming mistake: say which entry. */
export function checkMigrations(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration "${migration.name}" has version ${migration.version}; entry ${index + 1} must have version ${index + 1}`);
    }
  });
}
