/**
 * An admin token may carry an expiry (`admin-token create --expires-in`): refused after it. Tokens made
 * before never expire, as they were made.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 13,
  name: 'admin tokens: an optional expiry',
  up: `
ALTER TABLE admin_tokens ADD COLUMN expires_at timestamptz;
`,
};
