/**
 * The people of this till (the owner and staff, PINs as scrypt hashes), the PIN lock-out kept on disk so a
 * restart does not reset it, and the append-only audit log (no row is ever changed or removed).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
