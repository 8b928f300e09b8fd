/**
 * How far each till token has read its merchant's log: the highest sequence the relay has sent it (on its
 * stream or in a page) or that it named as its cursor. `merchant remove` counts the events above every
 * till's mark and refuses to drop them unless told how many. Rows outlive their token (what a revoked till
 * read was still read) and go with their merchant. A database from before has no marks: its events count
 * as unread until its tills next read.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 12,
  name: 'till reads: the highest sequence each till token has read',
  up: `
CREATE TABLE till_reads (
  merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  token_hash text NOT NULL CHECK (token_hash ~ '^sha256:[0-9a-f]{64}$'),
  label text NOT NULL,
  read_seq bigint NOT NULL CHECK (read_seq >= 0),
  read_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, token_hash)
);
`,
};
