/**
 * Receipt numbers: a short number per till and environment (R-000123), gap-free and never reused. A trigger
 * takes the next number in the very statement that makes a payment PAID, so it shares that SQL transaction: a
 * rollback gives the number back, a restart keeps the counter. Paid payments from before this version are
 * numbered once, in the order they completed. A number, once given, never changes.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
