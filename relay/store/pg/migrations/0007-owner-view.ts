/**
 * The owner's view: the per-merchant hourly summary and the viewer links. The summary was kept by a row
 * trigger on `events` (so written inside relay_commit's transaction, and only for a row really inserted: the
 * ON CONFLICT path of a repeat fires no INSERT trigger) until migration 9 gave it to relay_commit;
 * relay_owner_add stays for imports and as the rules' reference. The events already stored are summed once,
 * as the trigger would have.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 7,
  name: "owner's view: hourly summary kept by a trigger on events, viewer links",
  up: `
CREATE TABLE owner_hourly (
  merchant_id text NOT NULL REFERENCES merchants (id),
  environment text NOT NULL, hour bigint NOT NULL,
  till_id text NOT NULL, till_name text NOT NULL, cashier_id text NOT NULL, cashier_name text NOT NULL, network text NOT NULL,
  succeeded bigint NOT NULL, failed bigint NOT NULL, gross bigint NOT NULL, fees bigint NOT NULL, net bigint NOT NULL,
  PRIMARY KEY (merchant_id, environment, hour, till_id, cashier_id, network)
);
CREATE FUNCTION relay_owner_meta(p jsonb, p_field text, p_max int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(p -> 'metadata' -> p_field) = 'string' THEN left(p -> 'metadata' ->> p_field, p_max) ELSE '' END
$$;
CREATE FUNCTION relay_owner_pesewas(p jsonb, p_field text) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p ->> p_field ~ '^[0-9]{1,13}[.][0-9]{2}$' THEN ((p ->> p_field)::numeric * 100)::bigint ELSE 0 END
$$;
-- The hour of completedAt (validated ISO 8601 with an offset at the receiver), else of the commit.
CREATE FUNCTION relay_owner_add(p_merchant text, p_environment text, p_json text, p_received_at text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tx jsonb := p_json::jsonb;
  ok boolean := coalesce(tx ->> 'status' = 'SUCCESS', false);
  v_at text := CASE WHEN tx ->> 'completedAt' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' THEN tx ->> 'completedAt'
                    WHEN p_received_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T' THEN p_received_at ELSE now()::text END;
BEGIN
  INSERT INTO owner_hourly AS o (merchant_id, environment, hour, till_id, till_name, cashier_id, cashier_name, network,
                                 succeeded, failed, gross, fees, net)
    VALUES (p_merchant, p_environment, floor(extract(epoch FROM v_at::timestamptz) / 3600)::bigint,
            relay_owner_meta(tx, 'till', 64), relay_owner_meta(tx, 'tillName', 40),
            relay_owner_meta(tx, 'cashierId', 64), relay_owner_meta(tx, 'cashier', 40),
            left(coalesce(tx -> 'customer' ->> 'network', ''), 32),
            CASE WHEN ok THEN 1 ELSE 0 END, CASE WHEN coalesce(tx ->> 'status' = 'FAILED', false) THEN 1 ELSE 0 END,
            CASE WHEN ok THEN relay_owner_pesewas(tx, 'amount') ELSE 0 END,
            CASE WHEN ok THEN relay_owner_pesewas(tx, 'fee') ELSE 0 END,
            CASE WHEN ok THEN relay_owner_pesewas(tx, 'net') ELSE 0 END)
    ON CONFLICT (merchant_id, environment, hour, till_id, cashier_id, network) DO UPDATE SET
      succeeded = o.succeeded + excluded.succeeded, failed = o.failed + excluded.failed, gross = o.gross + excluded.gross,
      fees = o.fees + excluded.fees, net = o.net + excluded.net,
      till_name = CASE WHEN excluded.till_name <> '' THEN excluded.till_name ELSE o.till_name END,
      cashier_name = CASE WHEN excluded.cashier_name <> '' THEN excluded.cashier_name ELSE o.cashier_name END;
END $$;
CREATE FUNCTION relay_owner_summary() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM relay_owner_add(NEW.merchant_id, NEW.environment, NEW.transaction_json, NEW.received_at);
  RETURN NULL;
END $$;
CREATE TRIGGER events_owner_summary AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION relay_owner_summary();
-- Events already stored are summed once, as the trigger would have.
SELECT relay_owner_add(merchant_id, environment, transaction_json, received_at) FROM events ORDER BY merchant_id, seq;

CREATE TABLE owner_links (
  id text PRIMARY KEY,
  merchant_id text NOT NULL REFERENCES merchants (id),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^sha256:[0-9a-f]{64}$'),
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  label text NOT NULL CHECK (length(label) <= 200),
  time_zone text NOT NULL,
  created_by text NOT NULL,
  created_at text NOT NULL,
  last_used_at text,
  revoked_at text
);
CREATE INDEX owner_links_merchant ON owner_links (merchant_id);
`,
};
