/**
 * The spec never says references are unique across environments, and a test delivery must not
 * block a live one. SQLite cannot drop a UNIQUE constraint, so the table is rebuilt; seq values
 * (and so the AUTOINCREMENT counter) are kept.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 3,
  name: 'one event per (environment, reference)',
  up: `
  CREATE TABLE events_v3 (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    reference TEXT NOT NULL,
    client_reference TEXT,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    key_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    webhook_created_at TEXT NOT NULL,
    transaction_json TEXT NOT NULL,
    first_timestamp INTEGER NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL DEFAULT 1,
    UNIQUE (environment, reference)
  ) STRICT;
  INSERT INTO events_v3 SELECT seq, reference, client_reference, environment, key_id, received_at, webhook_created_at,
    transaction_json, first_timestamp, latest_timestamp, deliveries FROM events;
  DROP TABLE events;
  ALTER TABLE events_v3 RENAME TO events;
  CREATE INDEX events_reference ON events (reference);
  CREATE INDEX events_client_reference ON events (client_reference, environment);
  CREATE INDEX events_environment_seq ON events (environment, seq);
  `,
};
