/**
 * The admin surface. A master key check value (a known text sealed with the master key: a CLI or an instance
 * holding another key is refused before it writes anything); merchants can be suspended; keys and tokens
 * remember when they were last used (written in batches, and the auth triggers now fire only on the columns
 * that change what instances hold, so these writes do not reload every instance); admin tokens (hashed), the
 * audit of every change, and usage per merchant per day.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 4,
  name: 'admin: master key check, suspended merchants, last used, admin tokens, audit, usage per day',
  up: `
CREATE TABLE master_key_check (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  sealed bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE merchants ADD COLUMN suspended_at timestamptz;
ALTER TABLE service_keys ADD COLUMN last_used_at timestamptz;
ALTER TABLE till_tokens ADD COLUMN last_used_at timestamptz;
DROP TRIGGER merchants_changed ON merchants;
CREATE TRIGGER merchants_changed AFTER INSERT OR UPDATE OF id, name, log_id, suspended_at OR DELETE ON merchants
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();
DROP TRIGGER service_keys_changed ON service_keys;
CREATE TRIGGER service_keys_changed AFTER INSERT OR UPDATE OF public_id, merchant_id, secret_sealed OR DELETE ON service_keys
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();
DROP TRIGGER till_tokens_changed ON till_tokens;
CREATE TRIGGER till_tokens_changed AFTER INSERT OR UPDATE OF merchant_id, label, token_hash OR DELETE ON till_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();
CREATE TABLE admin_tokens (
  id bigserial PRIMARY KEY,
  label text NOT NULL CHECK (label ~ '^[A-Za-z0-9 ._:-]{1,64}$'),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^sha256:[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX admin_tokens_live_label ON admin_tokens (label) WHERE revoked_at IS NULL;
CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  merchant_id text,
  target text,
  detail jsonb
);
CREATE INDEX admin_audit_merchant ON admin_audit (merchant_id, id);
CREATE TABLE merchant_usage_daily (
  merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  day date NOT NULL,
  deliveries bigint NOT NULL DEFAULT 0,
  duplicates bigint NOT NULL DEFAULT 0,
  rejections jsonb NOT NULL DEFAULT '{}',
  last_delivery_at timestamptz,
  PRIMARY KEY (merchant_id, day)
);
CREATE TABLE merchant_usage_tills (
  merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  day date NOT NULL,
  label text NOT NULL,
  PRIMARY KEY (merchant_id, day, label)
);
-- Adds two {reason: count} objects key by key (usage flushes from several instances meet here).
CREATE FUNCTION relay_counts_add(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(k, coalesce((a ->> k)::bigint, 0) + coalesce((b ->> k)::bigint, 0)), '{}'::jsonb)
  FROM (SELECT jsonb_object_keys(a) AS k UNION SELECT jsonb_object_keys(b)) keys
$$;
`,
};
