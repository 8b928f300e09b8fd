/**
 * Who turned a link off: the shop owner at the till, or the operator. The links turned off before are the
 * owner's (only the owner could). Idempotent like migration 5: a database set back to an older version may
 * already hold the column.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 6,
  name: "owner's view: who turned a link off (owner or operator)",
  up: (db) => {
    const columns = db.prepare('PRAGMA table_info(owner_links)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'revoked_by')) {
      db.exec("ALTER TABLE owner_links ADD COLUMN revoked_by TEXT CHECK (revoked_by IN ('owner', 'operator'))");
    }
    db.exec("UPDATE owner_links SET revoked_by = 'owner' WHERE revoked_at IS NOT NULL AND revoked_by IS NULL");
  },
};
