/**
 * A phone link becomes a one-time invitation that a phone exchanges for its own device credential
 * (docs/security.md, "The owner's phone links"): the link's token hash is now the invitation's, good until
 * `invite_expires_at` and spent at `invite_used_at`; each phone that exchanged one is a row of
 * `owner_devices` (only its credential's hash kept), turned off on its own. `created_by_token` is the hash
 * of the till token that made (or last re-invited) the link: the link ends with that token. The links made
 * before held long-lived tokens that may sit in a phone's history: their invitations are spent here (the
 * owner asks the till for a new one). Each is tied to its maker's token by merchant and label; a link whose
 * maker's token is already gone is turned off, as the operator's doing.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 10,
  name: "owner's view: one-time invitations and per-phone device credentials",
  up: `
ALTER TABLE owner_links
  ADD COLUMN invite_expires_at text,
  ADD COLUMN invite_used_at text,
  ADD COLUMN created_by_token text CHECK (created_by_token ~ '^sha256:[0-9a-f]{64}$');
UPDATE owner_links SET invite_expires_at = created_at, invite_used_at = coalesce(last_used_at, created_at);
UPDATE owner_links l SET created_by_token = t.token_hash FROM till_tokens t
  WHERE t.merchant_id = l.merchant_id AND t.label = l.created_by;
UPDATE owner_links SET revoked_at = to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), revoked_by = 'operator'
  WHERE created_by_token IS NULL AND revoked_at IS NULL;
CREATE TABLE owner_devices (
  id text PRIMARY KEY,
  link_id text NOT NULL REFERENCES owner_links (id) ON DELETE CASCADE,
  credential_hash text NOT NULL UNIQUE CHECK (credential_hash ~ '^sha256:[0-9a-f]{64}$'),
  name text NOT NULL CHECK (length(name) <= 80),
  created_at text NOT NULL,
  last_seen_at text NOT NULL,
  expires_at text NOT NULL,
  revoked_at text
);
CREATE INDEX owner_devices_link ON owner_devices (link_id);
`,
};
