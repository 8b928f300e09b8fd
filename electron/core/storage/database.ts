/**
 * Opening the till's SQLite database (shared/sqlite.ts: WAL, synchronous=FULL, foreign keys, the
 * migrations listed in migrations/index.ts). A database written by a newer version of the app, or whose
 * migration history disagrees with this app's migrations, is refused untouched.
 */
import { openDatabase as openSqlite, type Db } from '../../../shared/sqlite.js';
import { CoreError } from '../errors.js';
import { MIGRATIONS } from './migrations/index.js';

export type { Db };

export type OpenDatabaseOptions = {
  /** Path of an Electron-built better_sqlite3.node (the Electron shell passes it; Node uses the default). */
  nativeBinding?: string;
};

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  return openSqlite(file, {
    migrations: MIGRATIONS,
    synchronous: 'FULL',
    nativeBinding: options.nativeBinding,
    check: true,
    ifDamaged:
      'Close momo-till and restore till.db from a backup; or move it aside to start with an empty one ' +
      '(the payments and settings in it would then be missing).',
    tooNew: (found, known) =>
      new CoreError(
        'INTERNAL',
        `This till's database was written by a newer version of momo-till (schema ${found}, this app knows ${known}). Update the app; the data was not touched.`,
      ),
  });
}
