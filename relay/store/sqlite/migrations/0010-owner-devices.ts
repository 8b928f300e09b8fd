/**
 * A phone link becomes a one-time invitation that a phone exchanges for its own device credential
 * (docs/security.md, "The owner's phone links"): the link's token hash is now the invitation's, good until
 * `invite_expires_at` and spent at `invite_used_at`; each phone that exchanged one is a row of
 * `owner_devices` (only its credential's hash kept), turned off on its own. `created_by_token` is the hash
 * of the till token that made (or last re-invited) the link: the link ends with that token. The links made
 * before held long-lived tokens that may sit in a phone's history: their invitations are spent here (the
 * owner asks the till for a new one). Idempotent like migration 5.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 10,
  name: "owner's view: one-time invitations and per-phone device credentials",
  up: (db) => {
    const columns = new Set((db.prepare('PRAGMA table_info(owner_links)').all() as Array<{ name: string }>).map((c) => c.name));
    for (const column of ['invite_expires_at', 'invite_used_at', 'created_by_token']) {
      if (!columns.has(column)) db.exec(`ALTER TABLE owner_links ADD COLUMN ${column} TEXT`);
    }
    db.exec(`
    UPDATE owner_links SET invite_expires_at = created_at, invite_used_at = coalesce(last_used_at, created_at)
      WHERE invite_expires_at IS NULL;
    CREATE TABLE IF NOT EXISTS owner_devices (
      id TEXT PRIMARY KEY, link_id TEXT NOT NULL REFERENCES owner_links (id) ON DELETE CASCADE,
      credential_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, created_at TEXT NOT NULL, last_seen_at TEXT NOT NULL,
      expires_at TEXT NOT NULL, revoked_at TEXT
    ) STRICT;
    CREATE INDEX IF NOT EXISTS owner_devices_link ON owner_devices (link_id);`);
  },
};
