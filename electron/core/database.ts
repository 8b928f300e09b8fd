/**
 * Opening the till's SQLite database: WAL, `synchronous=FULL` set explicitly on every open
 * (better-sqlite3 leaves WAL databases at NORMAL, which can lose the last commits on power loss),
 * foreign keys on, and versioned migrations through `PRAGMA user_version`. A database written by a
 * newer version of the app is refused rather than guessed at.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CoreError } from './errors.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export type OpenDatabaseOptions = {
  /** Path of an Electron-built better_sqlite3.node (the Electron shell passes it; Node uses the default). */
  nativeBinding?: string;
  /** Migrations to apply (tests pass a prefix to check each step). */
  migrations?: readonly string[];
};

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function migrate(db: Db, migrations: readonly string[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new CoreError(
      'INTERNAL',
      `This till's database was written by a newer version of momo-till (schema ${current}, this app knows ${migrations.length}). Update the app; the data was not touched.`,
    );
  }
  for (let version = current; version < migrations.length; version += 1) {
    const sql = migrations[version] as string;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
