/** Payments (this till's own state machine) and the relay cursor. */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 1,
  name: 'payments and the relay cursor',
  up: `
    CREATE TABLE payments (
      id TEXT PRIMARY KEY,
      request_id TEXT NOT NULL UNIQUE,
      merchant_ref TEXT NOT NULL UNIQUE,
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      state TEXT NOT NULL CHECK (state IN ('created','submitting','awaiting_customer','uncertain','rejected','success','failed')),
      amount INTEGER NOT NULL CHECK (amount > 0),
      fee INTEGER,
      net INTEGER,
      msisdn TEXT NOT NULL,
      msisdn_rev TEXT NOT NULL,
      network TEXT NOT NULL,
      customer_name TEXT,
      description TEXT NOT NULL,
      request_body TEXT NOT NULL,
      reference TEXT,
      till_id TEXT NOT NULL,
      error_code TEXT,
      error_message TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      stopped_waiting INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      completed_at INTEGER
    ) STRICT;
    CREATE INDEX payments_env_created ON payments (environment, created_at DESC);
    CREATE INDEX payments_env_state ON payments (environment, state);
    CREATE INDEX payments_env_reference ON payments (environment, reference);
    CREATE INDEX payments_env_msisdn_rev ON payments (environment, msisdn_rev);
    CREATE TABLE relay_cursor (
      environment TEXT PRIMARY KEY CHECK (environment IN ('test', 'live')),
      relay_url TEXT NOT NULL,
      last_seq INTEGER NOT NULL DEFAULT 0
    ) STRICT;
  `,
};
