/**
 * A per-environment count of this till's payments, kept by triggers, so a history page never counts a
 * million rows. Payments already there are counted once.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
