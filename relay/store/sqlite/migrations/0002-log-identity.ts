/**
 * The log's identity, made once with the database (a new or wiped data dir gets a new one), so a
 * till can tell "this is not the log my cursor points into" when sequence numbers start over.
 */
import type { Migration } from '../../../../shared/sqlite.js';
import { newLogId } from '../../index.js';

export const migration: Migration = {
  version: 2,
  name: 'log identity',
  up: (db) => {
    db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
    db.prepare("INSERT INTO meta (key, value) VALUES ('log_id', ?)").run(newLogId());
  },
};
