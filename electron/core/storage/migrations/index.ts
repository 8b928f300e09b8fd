/**
 * The till database's schema as migrations (shared/sqlite.ts applies them). Versions 7 on (people, shifts,
 * the day's close) are in migrations-working-day.ts, 18 on in migrations-day-close.ts: add the next entry
 * `{ version: n + 1, name, up }` at the end of the latter and one test for it in
 * test/unit/core/storage/migrations.test.ts; never edit a shipped one. Every table is STRICT; money is
 * INTEGER pesewas; times are Unix ms.
 */
import { latestVersion, type Migration } from '../../../../shared/sqlite.js';
import { WORKING_DAY_MIGRATIONS } from '../migrations-working-day.js';
import { DAY_CLOSE_MIGRATIONS } from './0018-z-rows-kept-by-results.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    // Payments (this till's own state machine) and the relay cursor.
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
  },
  {
    // The local copy of every final transaction of the merchant (all tills), with the local date in the till's
    // time zone, and a daily rollup kept in the same SQL transaction for fast takings.
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
  },
  {
    // A per-environment count of this till's payments, kept by triggers, so a history page never counts a million
    // rows.
    version: 3,
    name: 'payment counts kept by triggers',
    up: `
    CREATE TABLE payment_counts (
      environment TEXT PRIMARY KEY CHECK (environment IN ('test', 'live')),
      total INTEGER NOT NULL
    ) STRICT;
    INSERT INTO payment_counts (environment, total)
      SELECT e.environment, (SELECT count(*) FROM payments p WHERE p.environment = e.environment)
      FROM (SELECT 'test' AS environment UNION ALL SELECT 'live') e;
    CREATE TRIGGER payments_count_insert AFTER INSERT ON payments BEGIN
      UPDATE payment_counts SET total = total + 1 WHERE environment = NEW.environment;
    END;
    CREATE TRIGGER payments_count_delete AFTER DELETE ON payments BEGIN
      UPDATE payment_counts SET total = total - 1 WHERE environment = OLD.environment;
    END;
  `,
  },
  {
    // A TEST result says "SANDBOX" on the wire whatever network the customer is on; one of this till's own
    // payments now counts in takings under the network the cashier charged (as inserts do from this version on).
    // Rebuild the TEST rollup once; LIVE keeps the service's own network and is not touched.
    version: 4,
    name: 'TEST takings by the charged network',
    up: `
    DELETE FROM daily_takings WHERE environment = 'test';
    INSERT INTO daily_takings (environment, local_date, till_id, network, succeeded, failed, gross, fees, net)
      SELECT environment, local_date, till_id, takings_network,
        sum(status = 'SUCCESS'), sum(status = 'FAILED'),
        sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END),
        sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END),
        sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END)
      FROM (
        SELECT t.*, CASE WHEN t.network = 'SANDBOX' THEN
            coalesce((SELECT p.network FROM payments p WHERE p.merchant_ref = t.client_reference AND p.environment = 'test'), t.network)
          ELSE t.network END AS takings_network
        FROM transactions t WHERE t.environment = 'test'
      )
      GROUP BY environment, local_date, till_id, takings_network;
  `,
  },
  {
    // MerchantRef search per environment through its own index, so LIVE payments sharing the till's prefix can
    // never crowd TEST matches out of a search (or the reverse).
    version: 5,
    name: 'merchantRef index per environment',
    up: `
    CREATE INDEX payments_env_merchant_ref ON payments (environment, merchant_ref);
  `,
  },
  {
    // The relay log the cursor belongs to (the relay's logId). A relay whose database was wiped or replaced
    // numbers from 1 again under a new logId; the till then reads it again from 0. NULL until the relay first
    // names its log (a cursor from before this version is kept and adopted).
    version: 6,
    name: 'relay log id with the cursor',
    up: `
    ALTER TABLE relay_cursor ADD COLUMN log_id TEXT;
  `,
  },
  ...WORKING_DAY_MIGRATIONS,
  ...DAY_CLOSE_MIGRATIONS,
];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);
