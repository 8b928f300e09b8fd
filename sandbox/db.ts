/**
 * The simulator's SQLite database, opened by shared/sqlite.ts (WAL, STRICT tables, the migrations listed in
 * migrations/index.ts; a database from a newer version, or whose migration history disagrees with them, is
 * refused). To change the schema, add the next file there.
 */
import { join } from 'node:path';
import { openDatabase, type Db } from '../shared/sqlite.js';
import { MIGRATIONS } from './migrations/index.js';

export type { Db };
export { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';

export function openDb(dataDir: string): Db {
  return openDatabase(join(dataDir, 'sandbox.sqlite'), {
    migrations: MIGRATIONS,
    // NORMAL, not FULL: in WAL mode a commit survives the simulator being killed (what its restart
    // tests need) without an fsync per commit; only an OS crash could lose the last commits. A per-commit
    // fsync on a slow disk blocked the event loop long enough to make the scaled webhook time-outs fire
    // late and push the retry schedule off (the relay and the till keep FULL: they hold real money).
    synchronous: 'NORMAL',
    check: true,
    ifDamaged: 'Stop the simulator and restore sandbox.sqlite from a backup, or move it aside to start with a fresh one.',
    tooNew: (found, known) =>
      new Error(
        `The sandbox database in ${dataDir} is from a newer version (schema ${found}, this build knows ${known}); refusing to open it.`,
      ),
  });
}
