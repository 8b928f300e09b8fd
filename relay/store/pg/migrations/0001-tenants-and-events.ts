/**
 * The many-merchant relay's first schema: merchants (each with its log's identity and sequence counter), their
 * service keys (the secret sealed under the master key) and till tokens (hashed), a version every instance
 * polls to reload them (bumped by triggers, woken by NOTIFY), and the events of every merchant's log.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 1,
  name: 'merchants, service keys, till tokens, events',
  up: `
CREATE TABLE merchants (
  id text PRIMARY KEY CHECK (id ~ '^MCH_[A-Za-z0-9_-]{1,60}$'),
  name text CHECK (length(name) <= 200),
  -- The identity of this merchant's log: sequence numbers mean something only within it.
  log_id text NOT NULL,
  -- The merchant's sequence counter, locked by each commit (see relay_commit).
  last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE service_keys (
  public_id text PRIMARY KEY CHECK (public_id ~ '^pk_(test|live)_'),
  merchant_id text NOT NULL REFERENCES merchants (id),
  -- AES-256-GCM under the master key: 12-byte nonce, ciphertext, 16-byte tag (relay/pg/secret-box.ts).
  secret_sealed bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX service_keys_merchant ON service_keys (merchant_id);
CREATE TABLE till_tokens (
  merchant_id text NOT NULL REFERENCES merchants (id),
  label text NOT NULL CHECK (label ~ '^[A-Za-z0-9 ._:-]{1,64}$'),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^sha256:[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (merchant_id, label)
);
-- Bumped by any change to merchants, keys or tokens; every instance polls it (and is woken by NOTIFY).
CREATE TABLE auth_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO auth_version (id, version) VALUES (true, 1);
CREATE FUNCTION relay_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE auth_version SET version = version + 1;
  PERFORM pg_notify('relay_auth', '');
  RETURN NULL;
END $$;
CREATE TRIGGER merchants_changed AFTER INSERT OR UPDATE OF id, name, log_id OR DELETE ON merchants
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();
CREATE TRIGGER service_keys_changed AFTER INSERT OR UPDATE OR DELETE ON service_keys
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();
CREATE TRIGGER till_tokens_changed AFTER INSERT OR UPDATE OR DELETE ON till_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION relay_auth_changed();

CREATE TABLE events (
  merchant_id text NOT NULL REFERENCES merchants (id),
  seq bigint NOT NULL CHECK (seq > 0),
  reference text NOT NULL,
  client_reference text,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  key_id text NOT NULL,
  received_at text NOT NULL,
  webhook_created_at text NOT NULL,
  transaction_json text NOT NULL,
  first_timestamp bigint NOT NULL,
  latest_timestamp bigint NOT NULL,
  deliveries integer NOT NULL DEFAULT 1,
  PRIMARY KEY (merchant_id, seq),
  UNIQUE (merchant_id, environment, reference)
);
CREATE INDEX events_client_reference ON events (merchant_id, client_reference, environment);
CREATE INDEX events_environment_seq ON events (merchant_id, environment, seq);
`,
};
