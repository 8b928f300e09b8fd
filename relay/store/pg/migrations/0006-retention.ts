/**
 * Retention (relay --retention-days). A pruned event leaves its reference and the SHA-256 of its final state
 * (jsonb's text form) in pruned_references, kept for ever, so a repeat is still a repeat
 * (docs/provider-contract.md, "Retention"); event_retention.pruned_through marks how far each log is pruned
 * (tills behind it are told so). relay_prune deletes one batch of a merchant's oldest events; it takes no
 * lock a commit waits for (not the merchant's counter row): a commit that repeats an event while it is being
 * pruned may insert it again, and then finds it in pruned_references, takes the insert back and answers as a
 * repeat. So relay_commit looks there only after an insert, i.e. only for new references.
 *
 * relay_commit is restated in full (CREATE OR REPLACE): this is the function as version 6 leaves it, history
 * that never changes; migration 3 has the one before, migration 9 the next.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 6,
  name: 'retention: pruned references, pruned-through marks, relay_prune',
  up: `
CREATE TABLE pruned_references (
  merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  reference text NOT NULL,
  environment text NOT NULL CHECK (environment IN ('test', 'live')),
  seq bigint NOT NULL,
  transaction_sha256 bytea NOT NULL,
  latest_timestamp bigint NOT NULL,
  deliveries integer NOT NULL,
  PRIMARY KEY (merchant_id, reference, environment)
);
CREATE TABLE event_retention (
  merchant_id text PRIMARY KEY REFERENCES merchants (id) ON DELETE CASCADE,
  pruned_through bigint NOT NULL CHECK (pruned_through >= 0)
);
CREATE FUNCTION relay_state_hash(p_json text) RETURNS bytea LANGUAGE sql IMMUTABLE AS
  $f$ SELECT sha256(convert_to(p_json::jsonb::text, 'UTF8')) $f$;

CREATE FUNCTION relay_prune(p_merchant text, p_before text, p_limit integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_count integer;
  v_through bigint;
BEGIN
  -- One pruner per merchant at a time (instances share the work); a busy merchant is skipped this turn.
  IF NOT pg_try_advisory_xact_lock(hashtext('momo-relay-prune'), hashtext(p_merchant)) THEN
    RETURN 0;
  END IF;
  WITH head AS (
    SELECT seq, received_at FROM events WHERE merchant_id = p_merchant ORDER BY seq LIMIT p_limit
  ), stop AS (
    -- The oldest events up to the first one still kept: the pruned part stays one stretch from the start.
    SELECT min(seq) AS seq FROM head WHERE received_at >= p_before
  ), gone AS (
    DELETE FROM events e USING head, stop
      WHERE e.merchant_id = p_merchant AND e.seq = head.seq AND (stop.seq IS NULL OR head.seq < stop.seq)
      RETURNING e.seq, e.reference, e.environment, e.transaction_json, e.latest_timestamp, e.deliveries
  ), kept AS (
    INSERT INTO pruned_references (merchant_id, reference, environment, seq, transaction_sha256, latest_timestamp, deliveries)
      SELECT p_merchant, reference, environment, seq, relay_state_hash(transaction_json), latest_timestamp, deliveries FROM gone
      ON CONFLICT DO NOTHING
  )
  SELECT count(*), max(seq) INTO v_count, v_through FROM gone;
  IF v_count > 0 THEN
    INSERT INTO event_retention (merchant_id, pruned_through) VALUES (p_merchant, v_through)
      ON CONFLICT (merchant_id) DO UPDATE SET pruned_through = greatest(event_retention.pruned_through, excluded.pruned_through);
  END IF;
  RETURN v_count;
END $$;

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
  p record;
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
      SELECT r.seq, r.transaction_sha256, r.latest_timestamp INTO p
        FROM pruned_references r WHERE r.merchant_id = p_merchant AND r.reference = d.reference AND r.environment = d.environment;
      IF NOT FOUND THEN
        v_last := v_last + 1;
        o_kind := 'accepted'; o_seq := v_seq;
      ELSE
        -- A repeat of a pruned event: the insert is taken back (its number is used again, no gap).
        DELETE FROM events WHERE merchant_id = p_merchant AND seq = v_seq;
        o_seq := p.seq;
        IF p.transaction_sha256 = relay_state_hash(d.transaction_json) THEN
          UPDATE pruned_references SET deliveries = deliveries + 1, latest_timestamp = greatest(latest_timestamp, d.ts)
            WHERE merchant_id = p_merchant AND reference = d.reference AND environment = d.environment;
          o_kind := 'duplicate'; o_previous_timestamp := greatest(p.latest_timestamp, d.ts);
        ELSE
          -- o_json stays NULL: the stored fields are gone.
          o_kind := 'conflict'; o_environment := d.environment;
        END IF;
      END IF;
    ELSE
      o_kind := 'duplicate'; o_seq := v_seq; o_previous_timestamp := v_latest;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF v_last > v_first THEN
    UPDATE merchants SET last_seq = v_last WHERE id = p_merchant;
    PERFORM pg_notify('relay_events', p_merchant || ' ' || v_last);
  END IF;
END $$;
`,
};
