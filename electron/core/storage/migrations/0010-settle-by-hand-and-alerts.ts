/**
 * Settle by hand: the outcome a manager verified on the service's dashboard, who and when, and how the
 * service's own result (if it came later) compared; the transaction row it made; the owner's alerts.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
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
};
