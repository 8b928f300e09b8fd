/**
 * The relay's PostgreSQL schema, versioned like the SQLite one: each migration runs once, recorded in
 * relay_schema_migrations; the pending ones run in one transaction (DDL is transactional here), so a
 * failed upgrade leaves the old schema. Instances starting together serialise on an advisory lock;
 * a database from a newer relay is refused.
 */
import type pg from 'pg';
import { ADMIN } from './0004-admin.js';
import { RETENTION } from './0006-retention.js';
import { SUMMARY_IN_COMMIT } from './0009-summary-in-commit.js';
import { PG_OWNER_LINK_REVOKER_MIGRATION, PG_OWNER_VIEW_MIGRATION } from '../owner-view-pg.js';

export type PgMigration = { version: number; name: string; up: string };

const TENANTS = `
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
`;

/**
 * One group of one merchant's deliveries, committed in one transaction (the caller's statement).
 * The merchant's counter row is locked first and held until COMMIT, so this merchant's commits take
 * their numbers one after the other: numbers follow commit order, a reader never sees seq n+1
 * before n, and a rolled-back commit gives its numbers back (no gaps). Repeats are looked up after
 * the lock is taken, so the same delivery racing on two instances is stored once: the second
 * commit waits for the first and then finds its row.
 */
const COMMIT_FUNCTION = `
CREATE FUNCTION relay_commit(
  p_merchant text, p_environment text[], p_reference text[], p_client_reference text[], p_key_id text[],
  p_received_at text[], p_webhook_created_at text[], p_transaction_json text[], p_timestamp bigint[])
RETURNS TABLE (o_kind text, o_seq bigint, o_environment text, o_json text, o_previous_timestamp bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_last bigint;
  v_first bigint;
  v_row record;
BEGIN
  SELECT m.last_seq INTO v_last FROM merchants m WHERE m.id = p_merchant FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown merchant %', p_merchant USING ERRCODE = 'foreign_key_violation';
  END IF;
  v_first := v_last;
  FOR i IN 1 .. coalesce(array_length(p_reference, 1), 0) LOOP
    SELECT e.seq, e.environment, e.transaction_json, e.latest_timestamp INTO v_row
      FROM events e
      WHERE e.merchant_id = p_merchant AND e.environment = p_environment[i] AND e.reference = p_reference[i];
    o_environment := NULL; o_json := NULL; o_previous_timestamp := NULL;
    IF NOT FOUND THEN
      v_last := v_last + 1;
      INSERT INTO events (merchant_id, seq, reference, client_reference, environment, key_id, received_at,
                          webhook_created_at, transaction_json, first_timestamp, latest_timestamp)
        VALUES (p_merchant, v_last, p_reference[i], p_client_reference[i], p_environment[i], p_key_id[i],
                p_received_at[i], p_webhook_created_at[i], p_transaction_json[i], p_timestamp[i], p_timestamp[i]);
      o_kind := 'accepted'; o_seq := v_last;
    ELSIF v_row.transaction_json::jsonb = p_transaction_json[i]::jsonb THEN
      UPDATE events SET deliveries = deliveries + 1, latest_timestamp = greatest(latest_timestamp, p_timestamp[i])
        WHERE merchant_id = p_merchant AND seq = v_row.seq;
      o_kind := 'duplicate'; o_seq := v_row.seq; o_previous_timestamp := v_row.latest_timestamp;
    ELSE
      o_kind := 'conflict'; o_seq := v_row.seq; o_environment := v_row.environment; o_json := v_row.transaction_json;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF v_last > v_first THEN
    UPDATE merchants SET last_seq = v_last WHERE id = p_merchant;
    -- Delivered to listeners at COMMIT, never before: a woken instance reads committed rows.
    PERFORM pg_notify('relay_events', p_merchant || ' ' || v_last);
  END IF;
END $$;
`;

/**
 * 3: relay_commit keeps its rules and reads its arguments once, with unnest, and finds a repeat through
 * the (merchant, reference, environment) key itself (INSERT … ON CONFLICT), so the cost of a group
 * is linear in its size whatever the planner knows about the table. Before: indexing the array
 * arguments walked each one from its start on every access, and on a table not yet analysed the
 * repeat lookup could scan the merchant's whole log through the (merchant, environment, seq) index
 * (measured: 1 ms a delivery in groups of 128). The key is reordered so that a look-up by reference
 * alone (GET /v1/transactions/<reference>) uses it too.
 */
const COMMIT_ON_CONFLICT = `
ALTER TABLE events DROP CONSTRAINT events_merchant_id_environment_reference_key;
ALTER TABLE events ADD CONSTRAINT events_merchant_reference_environment UNIQUE (merchant_id, reference, environment);
CREATE OR REPLACE FUNCTION relay_commit(
  p_merchant text, p_environment text[], p_reference text[], p_client_reference text[], p_key_id text[],
  p_received_at text[], p_webhook_created_at text[], p_transaction_json text[], p_timestamp bigint[])
RETURNS TABLE (o_kind text, o_seq bigint, o_environment text, o_json text, o_previous_timestamp bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_last bigint;
  v_first bigint;
  v_seq bigint;
  v_latest bigint;
  d record;
BEGIN
  SELECT m.last_seq INTO v_last FROM merchants m WHERE m.id = p_merchant FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown merchant %', p_merchant USING ERRCODE = 'foreign_key_violation';
  END IF;
  v_first := v_last;
  FOR d IN
    SELECT * FROM unnest(p_environment, p_reference, p_client_reference, p_key_id, p_received_at, p_webhook_created_at,
                         p_transaction_json, p_timestamp)
      AS u(environment, reference, client_reference, key_id, received_at, webhook_created_at, transaction_json, ts)
  LOOP
    o_environment := NULL; o_json := NULL; o_previous_timestamp := NULL;
    -- New: stored as v_last + 1. A repeat with the same final state: counted (no new number). A repeat that
    -- disagrees: left as it is (no row comes back).
    INSERT INTO events AS e (merchant_id, seq, reference, client_reference, environment, key_id, received_at,
                             webhook_created_at, transaction_json, first_timestamp, latest_timestamp)
      VALUES (p_merchant, v_last + 1, d.reference, d.client_reference, d.environment, d.key_id,
              d.received_at, d.webhook_created_at, d.transaction_json, d.ts, d.ts)
      ON CONFLICT (merchant_id, reference, environment) DO UPDATE
        SET deliveries = e.deliveries + 1, latest_timestamp = greatest(e.latest_timestamp, excluded.latest_timestamp)
        WHERE e.transaction_json::jsonb = excluded.transaction_json::jsonb
      RETURNING e.seq, e.latest_timestamp INTO v_seq, v_latest;
    IF NOT FOUND THEN
      SELECT e.seq, e.environment, e.transaction_json INTO o_seq, o_environment, o_json
        FROM events e WHERE e.merchant_id = p_merchant AND e.reference = d.reference AND e.environment = d.environment;
      o_kind := 'conflict';
    ELSIF v_seq = v_last + 1 THEN
      v_last := v_last + 1;
      o_kind := 'accepted'; o_seq := v_seq;
    ELSE
      -- latest_timestamp is now the greater of the stored one and this one: this one is older exactly when it is below it.
      o_kind := 'duplicate'; o_seq := v_seq; o_previous_timestamp := v_latest;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF v_last > v_first THEN
    UPDATE merchants SET last_seq = v_last WHERE id = p_merchant;
    PERFORM pg_notify('relay_events', p_merchant || ' ' || v_last);
  END IF;
END $$;
`;

/**
 * 4 (issue 19 §7): a merchant id is one id whatever its case (MCH_alpha and MCH_ALPHA cannot both
 * exist), and a name holds no control, separator or bidirectional character (as tenants.ts checks;
 * NOT VALID: rows written before are shown escaped by `merchant list`, not refused). A database that
 * already holds two ids differing only in case stops the upgrade with them named.
 */
const MERCHANT_ID_CASE = `
DO $$
DECLARE clash text;
BEGIN
  SELECT string_agg(ids, '; ') INTO clash FROM (
    SELECT string_agg(id, ', ' ORDER BY id) AS ids FROM merchants GROUP BY lower(id) HAVING count(*) > 1) c;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'merchant ids differ only in case (%): rename or remove one of each before upgrading', clash;
  END IF;
END $$;
CREATE UNIQUE INDEX merchants_id_lower ON merchants (lower(id));
ALTER TABLE merchants ADD CONSTRAINT merchants_name_printable
  CHECK (name !~ '[\\x01-\\x1f\\x7f-\\x9f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029]') NOT VALID;
`;

export const PG_MIGRATIONS: readonly PgMigration[] = [
  { version: 1, name: 'merchants, service keys, till tokens, events', up: TENANTS },
  { version: 2, name: 'relay_commit: per-merchant gapless group commit', up: COMMIT_FUNCTION },
  {
    version: 3,
    name: 'relay_commit linear in the group size: unnest, INSERT … ON CONFLICT on (merchant, reference, environment)',
    up: COMMIT_ON_CONFLICT,
  },
  {
    version: 4,
    name: 'admin: master key check, suspended merchants, last used, admin tokens, audit, usage per day',
    up: ADMIN,
  },
  { version: 5, name: 'merchant ids unique whatever their case; printable merchant names', up: MERCHANT_ID_CASE },
  { version: 6, name: 'retention: pruned references, pruned-through marks, relay_prune', up: RETENTION },
  PG_OWNER_VIEW_MIGRATION,
  PG_OWNER_LINK_REVOKER_MIGRATION,
  {
    version: 9,
    name: "owner's summary written by relay_commit from fields worked out in Node, only for accepted events (no trigger)",
    up: SUMMARY_IN_COMMIT,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

export class PgSchemaError extends Error {
  override name = 'PgSchemaError';
}

/**
 * The version found when there is nothing to do, in one query without the transaction and lock: every CLI
 * call opens the database, and a `merchant list` is mostly start-up (issue 19, §1). Migrations commit with
 * their version row, so a committed version at or past `target` (and one this relay knows) is final.
 * Anything else (no table yet, a newer schema, an error) goes the locked way, which says it properly.
 */
async function versionIfCurrent(client: pg.ClientBase, target: number): Promise<number | undefined> {
  try {
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM relay_schema_migrations');
    const found = rows[0]?.v ?? 0;
    return found >= target && found <= PG_SCHEMA_VERSION ? found : undefined;
  } catch {
    return undefined;
  }
}

/** Brings the database to PG_SCHEMA_VERSION (tests may stop at an older `target`); returns the version found before. */
export async function migratePg(client: pg.ClientBase, target = PG_SCHEMA_VERSION): Promise<number> {
  const current = await versionIfCurrent(client, target);
  if (current !== undefined) return current;
  await client.query('BEGIN');
  try {
    // One instance migrates at a time; the others wait here, then find nothing left to do.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('momo-relay-migrate'))");
    await client.query(`CREATE TABLE IF NOT EXISTS relay_schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM relay_schema_migrations');
    const found = rows[0]?.v ?? 0;
    if (found > PG_SCHEMA_VERSION) {
      throw new PgSchemaError(
        `The relay database is schema version ${found}, newer than this relay understands (${PG_SCHEMA_VERSION}). ` +
          'Run a newer relay; this one will not touch it.',
      );
    }
    for (const m of PG_MIGRATIONS) {
      if (m.version <= found || m.version > target) continue;
      await client.query(m.up);
      await client.query('INSERT INTO relay_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
    return found;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
