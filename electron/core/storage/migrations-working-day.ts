/**
 * The till's migrations from version 7 on: the shop's working day (people and the audit log, who took each
 * payment and shifts, till names, settle by hand, the day's close). migrations.ts lists them after the first
 * six; the next ones are in migrations-day-close.ts.
 */
import type { Migration } from '../../../shared/sqlite.js';

export const WORKING_DAY_MIGRATIONS: readonly Migration[] = [
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
  {
    // The payments ever settled by hand, few on any till: the takings CSV reads what the service later said of
    // them (confirmed, overridden) from this index once, instead of looking up every row's payment.
    version: 13,
    name: 'payments settled by hand indexed',
    up: `
    CREATE INDEX payments_by_hand ON payments (environment, merchant_ref) WHERE hand_outcome IS NOT NULL;
    `,
  },
  {
    // Takings per cashier and the part settled by hand come from the daily rollup too (issue 20 item 14): it is
    // keyed also by who started the payment (staff_key: their staff id, '' for nobody signed in) and whether it
    // was settled by hand, so a 30-day range reads a few hundred rollup rows instead of every transaction of
    // the range. Rebuilt from the transactions, by takings network (as transactions-store's rebuildRollupSql).
    version: 14,
    name: 'daily rollup by cashier and by hand',
    up: `
    CREATE TABLE daily_takings_by_cashier (
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      local_date TEXT NOT NULL,
      till_id TEXT NOT NULL,
      network TEXT NOT NULL,
      staff_key TEXT NOT NULL,
      by_hand INTEGER NOT NULL CHECK (by_hand IN (0, 1)),
      staff_name TEXT,
      succeeded INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      gross INTEGER NOT NULL,
      fees INTEGER NOT NULL,
      net INTEGER NOT NULL,
      PRIMARY KEY (environment, local_date, till_id, network, staff_key, by_hand)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO daily_takings_by_cashier (environment, local_date, till_id, network, staff_key, by_hand, staff_name,
      succeeded, failed, gross, fees, net)
    SELECT environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand, max(staff_name),
      sum(status = 'SUCCESS'), sum(status = 'FAILED'),
      sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END)
    FROM (SELECT t.*, CASE WHEN t.environment = 'test' AND t.network = 'SANDBOX' THEN
        coalesce((SELECT p.network FROM payments p WHERE p.merchant_ref = t.client_reference AND p.environment = t.environment), t.network)
      ELSE t.network END AS takings_network FROM transactions t)
    GROUP BY environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand;
    DROP TABLE daily_takings;
    ALTER TABLE daily_takings_by_cashier RENAME TO daily_takings;
    `,
  },
  {
    // Receipt numbers (issue 20 item 13): a short number per till and environment (R-000123), gap-free and never
    // reused. A trigger takes the next number in the very statement that makes a payment PAID, so it shares that
    // SQL transaction: a rollback gives the number back, a restart keeps the counter. Paid payments from before
    // this version are numbered once, in the order they completed. A number, once given, never changes.
    version: 15,
    name: 'receipt numbers',
    up: `
    ALTER TABLE payments ADD COLUMN receipt_no INTEGER CHECK (receipt_no > 0);
    CREATE UNIQUE INDEX payments_receipt_no ON payments (environment, receipt_no) WHERE receipt_no IS NOT NULL;
    CREATE TABLE receipt_counters (
      environment TEXT PRIMARY KEY CHECK (environment IN ('test', 'live')),
      last INTEGER NOT NULL CHECK (last >= 0)
    ) STRICT;
    UPDATE payments SET receipt_no = (
      SELECT n FROM (
        SELECT id, row_number() OVER (PARTITION BY environment ORDER BY completed_at, created_at, id) AS n
        FROM payments WHERE state = 'success'
      ) AS numbered WHERE numbered.id = payments.id
    ) WHERE state = 'success';
    INSERT INTO receipt_counters (environment, last)
      SELECT e.environment, (SELECT coalesce(max(receipt_no), 0) FROM payments WHERE environment = e.environment)
      FROM (SELECT 'test' AS environment UNION ALL SELECT 'live') AS e;
    CREATE TRIGGER payments_receipt_no_kept BEFORE UPDATE OF receipt_no ON payments WHEN OLD.receipt_no IS NOT NULL
      BEGIN SELECT RAISE(ABORT, 'a receipt number never changes'); END;
    CREATE TRIGGER payments_receipt_no_next AFTER UPDATE OF state ON payments
      WHEN NEW.state = 'success' AND NEW.receipt_no IS NULL
      BEGIN
        UPDATE receipt_counters SET last = last + 1 WHERE environment = NEW.environment;
        UPDATE payments SET receipt_no = (SELECT last FROM receipt_counters WHERE environment = NEW.environment)
          WHERE id = NEW.id;
      END;
    CREATE TRIGGER payments_receipt_no_insert AFTER INSERT ON payments
      WHEN NEW.state = 'success' AND NEW.receipt_no IS NULL
      BEGIN
        UPDATE receipt_counters SET last = last + 1 WHERE environment = NEW.environment;
        UPDATE payments SET receipt_no = (SELECT last FROM receipt_counters WHERE environment = NEW.environment)
          WHERE id = NEW.id;
      END;
    `,
  },
  {
    // Who stopped waiting for a payment: its late result names them (and who started it) to whoever is at the
    // till when it comes, instead of telling a manager "you stopped waiting" (issue 20 item 3).
    version: 16,
    name: 'who stopped waiting',
    up: `
    ALTER TABLE payments ADD COLUMN stopped_by_name TEXT;
    `,
  },
  {
    // A Z's rows by reference (issue 20 item 15): one row per line of its CSV, in order (seq), naming the
    // transaction it counted and whether that result arrived after an earlier close. Only what could change
    // later is frozen as its CSV line (JSON, day-csv.ts' CsvLine): results settled by hand (the service's own
    // result may replace their figures), the correction and recount lines, and every line of a Z closed before
    // this version (copied from z_reports.lines, which stays as it was). The CSV is built when it is exported,
    // so a close at a long-used till holds no line per row in memory. Two partial indexes serve the sums.
    version: 17,
    name: 'Z rows by reference',
    up: `
    CREATE TABLE z_report_rows (
      z_report_id INTEGER NOT NULL REFERENCES z_reports (id),
      seq INTEGER NOT NULL CHECK (seq > 0),
      reference TEXT NOT NULL,
      late INTEGER NOT NULL CHECK (late IN (0, 1)),
      line TEXT,
      PRIMARY KEY (z_report_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX z_report_rows_frozen ON z_report_rows (reference, z_report_id) WHERE line IS NOT NULL;
    CREATE TRIGGER z_report_rows_no_update BEFORE UPDATE ON z_report_rows BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    CREATE TRIGGER z_report_rows_no_delete BEFORE DELETE ON z_report_rows BEGIN SELECT RAISE(ABORT, 'a Z report never changes'); END;
    -- The results in no Z yet, as an X report or a close sums them (day-sums.ts): a covering index, so the sums
    -- read no table row; and the failed ones, in CSV order, which the report lists. Partial: only rows in no
    -- Z, so they stay small at a till closed daily.
    CREATE INDEX transactions_unclosed ON transactions (environment, staff_id, staff_name, till_id, network, client_reference,
      status, amount, fee, net, settled_by_hand) WHERE z_report_id IS NULL;
    CREATE INDEX transactions_unclosed_failed ON transactions (environment, completed_at, reference)
      WHERE z_report_id IS NULL AND status = 'FAILED';
    INSERT INTO z_report_rows (z_report_id, seq, reference, late, line)
      SELECT z.id, l.key + 1, json_extract(l.value, '$[1]'), json_extract(l.value, '$[12]') IS 'yes', l.value
      FROM z_reports z, json_each(z.lines) l;
    `,
  },
];
