/**
 * How far each till token has read the log: the highest sequence the relay has sent it (on its stream or in
 * a page) or that it named as its cursor, by the token's hash from the config file. A file from before has
 * no marks: its events count as unread until its tills next read.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 12,
  name: 'till reads: the highest sequence each till token has read',
  up: `
    CREATE TABLE IF NOT EXISTS till_reads (
      token_hash TEXT PRIMARY KEY, label TEXT NOT NULL, read_seq INTEGER NOT NULL CHECK (read_seq >= 0), read_at TEXT NOT NULL
    ) STRICT;`,
};
