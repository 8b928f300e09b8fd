/**
 * Who turned a link off: the shop owner at the till, or the operator (CLI or admin API). The links turned off
 * before are the owner's (only the owner could).
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 8,
  name: "owner's view: who turned a link off (owner or operator)",
  up: `
ALTER TABLE owner_links ADD COLUMN revoked_by text CHECK (revoked_by IN ('owner', 'operator'));
UPDATE owner_links SET revoked_by = 'owner' WHERE revoked_at IS NOT NULL;
`,
};
