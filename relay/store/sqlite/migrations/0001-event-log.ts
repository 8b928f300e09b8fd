import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 1,
  name: 'event log',
  up: `
  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    reference TEXT NOT NULL UNIQUE,
    client_reference TEXT,
    environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
    key_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    webhook_created_at TEXT NOT NULL,
    transaction_json TEXT NOT NULL,
    first_timestamp INTEGER NOT NULL,
    latest_timestamp INTEGER NOT NULL,
    deliveries INTEGER NOT NULL DEFAULT 1
  ) STRICT;
  CREATE INDEX events_client_reference ON events (client_reference, environment);
  CREATE INDEX events_environment_seq ON events (environment, seq);
  `,
};
