/**
 * Who started each payment (local: staff id, name and shift; from other tills: the cashier named in the
 * echoed metadata), and the shifts, each with the report stored when it closed.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
