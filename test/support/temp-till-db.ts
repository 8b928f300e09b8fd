/** A till database (all migrations applied) in a fresh folder, for tests of the core's parts on real SQLite. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../electron/core/storage/database.js';

/** Opens till.db in a new folder named from `prefix`; `close` closes it and removes the folder. */
export function openTempTillDb(prefix: string): { db: Db; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = openDatabase(join(dir, 'till.db'));
  return {
    db,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
