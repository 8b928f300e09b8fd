/**
 * The day's close: each Z report is an immutable snapshot (triggers refuse any change or removal), numbered
 * per environment: its figures (report, JSON) and the transactions it counted as its CSV lists them (lines,
 * JSON). Each final transaction names the Z that counted it (NULL until a close).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
