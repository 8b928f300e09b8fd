/**
 * The till database's schema as migrations (shared/sqlite.ts applies them). To change the schema, add the
 * next entry `{ version: n + 1, name, up }` at the end and one test for it in test/unit/core/migrations.test.ts;
 * never edit a shipped one. Every table is STRICT; money is INTEGER pesewas; times are Unix ms.
 */
import { latestVersion, type Migration } from '../../shared/sqlite.js';

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
  {
    // The people of this till (the owner and staff, PINs as scrypt hashes), the PIN lock-out kept on disk so a
    // restart does not reset it, and the append-only audit log (no row is ever changed or removed).
    version: 7,
    name: 'people, PIN lock-out and audit log',
    up: `
    CREATE TABLE staff (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
      role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'cashier')),
      pin_hash TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX staff_one_owner ON staff (role) WHERE role = 'owner';
    CREATE TABLE pin_attempts (
      subject TEXT PRIMARY KEY,
      failures INTEGER NOT NULL DEFAULT 0,
      lockouts INTEGER NOT NULL DEFAULT 0,
      locked_until INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      actor_id TEXT,
      actor_name TEXT,
      action TEXT NOT NULL,
      detail TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE INDEX audit_log_action ON audit_log (action, at);
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    `,
  },
  {
    // Who started each payment (local: staff id, name and shift; from other tills: the cashier named in the
    // echoed metadata), and the shifts, each with the report stored when it closed.
    version: 8,
    name: 'payment attribution and shifts',
    up: `
    ALTER TABLE payments ADD COLUMN staff_id TEXT;
    ALTER TABLE payments ADD COLUMN staff_name TEXT;
    ALTER TABLE payments ADD COLUMN shift_id TEXT;
    CREATE INDEX payments_shift ON payments (shift_id);
    ALTER TABLE transactions ADD COLUMN staff_id TEXT;
    ALTER TABLE transactions ADD COLUMN staff_name TEXT;
    CREATE TABLE shifts (
      id TEXT PRIMARY KEY,
      staff_id TEXT NOT NULL REFERENCES staff (id),
      staff_name TEXT NOT NULL,
      opened_at INTEGER NOT NULL,
      closed_at INTEGER,
      closed_by TEXT,
      report TEXT
    ) STRICT;
    CREATE UNIQUE INDEX shifts_one_open ON shifts (staff_id) WHERE closed_at IS NULL;
    CREATE INDEX shifts_opened ON shifts (opened_at DESC);
    CREATE TRIGGER shifts_closed_frozen BEFORE UPDATE ON shifts WHEN OLD.closed_at IS NOT NULL
      BEGIN SELECT RAISE(ABORT, 'a closed shift never changes'); END;
    `,
  },
  {
    // The names of the merchant's tills, from the metadata each result echoes (payment-metadata.ts): the
    // latest result's name wins, so a renamed till is named anew. This till's own name stays in Settings.
    version: 9,
    name: 'till names',
    up: `
    CREATE TABLE till_names (
      till_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      seen_at INTEGER NOT NULL
    ) STRICT;
    `,
  },
  {
    // Settle by hand (issue 12 item 6): the outcome a manager verified on the service's dashboard, who and when,
    // and how the service's own result (if it came later) compared; the transaction row it made; the owner's alerts.
    version: 10,
    name: 'settle by hand and alerts',
    up: `
    ALTER TABLE payments ADD COLUMN hand_outcome TEXT CHECK (hand_outcome IN ('paid', 'not_paid'));
    ALTER TABLE payments ADD COLUMN hand_reference TEXT;
    ALTER TABLE payments ADD COLUMN hand_fee INTEGER CHECK (hand_fee >= 0);
    ALTER TABLE payments ADD COLUMN hand_note TEXT;
    ALTER TABLE payments ADD COLUMN hand_by_id TEXT;
    ALTER TABLE payments ADD COLUMN hand_by_name TEXT;
    ALTER TABLE payments ADD COLUMN hand_at INTEGER;
    ALTER TABLE payments ADD COLUMN hand_check TEXT CHECK (hand_check IN ('confirmed', 'overridden'));
    ALTER TABLE transactions ADD COLUMN settled_by_hand INTEGER NOT NULL DEFAULT 0 CHECK (settled_by_hand IN (0, 1));
    CREATE TABLE alerts (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('hand_settlement_overridden')),
      payment_id TEXT NOT NULL REFERENCES payments (id),
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      message TEXT NOT NULL,
      raised_at INTEGER NOT NULL,
      acknowledged_at INTEGER,
      acknowledged_by_id TEXT,
      acknowledged_by_name TEXT
    ) STRICT;
    CREATE UNIQUE INDEX alerts_one_per_payment ON alerts (kind, payment_id);
    CREATE INDEX alerts_open ON alerts (acknowledged_at, raised_at);
    `,
  },
  {
    // The day's close: each Z report is an immutable snapshot (triggers refuse any change or removal), numbered
    // per environment: its figures (report, JSON) and the transactions it counted as its CSV lists them (lines,
    // JSON). Each final transaction names the Z that counted it (NULL until a close).
    version: 11,
    name: 'Z reports',
    up: `
    CREATE TABLE z_reports (
      id INTEGER PRIMARY KEY,
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      number INTEGER NOT NULL CHECK (number > 0),
      opened_at INTEGER,
      closed_at INTEGER NOT NULL,
      closed_by_id TEXT,
      closed_by_name TEXT,
      report TEXT NOT NULL,
      lines TEXT NOT NULL,
      UNIQUE (environment, number)
    ) STRICT;
    CREATE TRIGGER z_reports_no_update BEFORE UPDATE ON z_reports BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    CREATE TRIGGER z_reports_no_delete BEFORE DELETE ON z_reports BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    ALTER TABLE transactions ADD COLUMN z_report_id INTEGER REFERENCES z_reports (id);
    CREATE INDEX transactions_env_z ON transactions (environment, z_report_id);
    `,
  },
  {
    // The few results settled by hand, found without reading every transaction: a day close looks for those the
    // service confirmed with other figures than the hand's after a Z counted the hand's (day-corrections.ts).
    version: 12,
    name: 'results settled by hand indexed',
    up: `
    CREATE INDEX transactions_by_hand ON transactions (environment, z_report_id) WHERE settled_by_hand = 1;
    `,
  },
];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);
