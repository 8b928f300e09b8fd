/**
 * The local copy of every final transaction of the merchant (all tills), with the local date in the till's
 * time zone, and a daily rollup kept in the same SQL transaction for fast takings.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 2,
  name: 'transaction copy and daily takings',
  up: `
    CREATE TABLE transactions (
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      reference TEXT NOT NULL,
      client_reference TEXT,
      status TEXT NOT NULL CHECK (status IN ('SUCCESS', 'FAILED')),
      amount INTEGER NOT NULL,
      fee INTEGER NOT NULL,
      net INTEGER NOT NULL,
      msisdn TEXT NOT NULL,
      network TEXT NOT NULL,
      description TEXT NOT NULL,
      till_id TEXT NOT NULL,
      completed_at INTEGER NOT NULL,
      local_date TEXT NOT NULL,
      relay_seq INTEGER,
      received_at INTEGER NOT NULL,
      PRIMARY KEY (environment, reference)
    ) STRICT;
    CREATE INDEX transactions_env_client_ref ON transactions (environment, client_reference);
    CREATE INDEX transactions_env_date ON transactions (environment, local_date, completed_at);
    CREATE TABLE daily_takings (
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      local_date TEXT NOT NULL,
      till_id TEXT NOT NULL,
      network TEXT NOT NULL,
      succeeded INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      gross INTEGER NOT NULL,
      fees INTEGER NOT NULL,
      net INTEGER NOT NULL,
      PRIMARY KEY (environment, local_date, till_id, network)
    ) STRICT, WITHOUT ROWID;
  `,
};
