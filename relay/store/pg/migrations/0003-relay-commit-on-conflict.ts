/**
 * relay_commit keeps its rules and reads its arguments once, with unnest, and finds a repeat through the
 * (merchant, reference, environment) key itself (INSERT … ON CONFLICT), so the cost of a group is linear in
 * its size whatever the planner knows about the table: indexing the array arguments walked each one from its
 * start on every access, and on a table not yet analysed the repeat lookup could scan the merchant's whole
 * log through the (merchant, environment, seq) index. The key is reordered so that a look-up by reference
 * alone (GET /v1/transactions/<reference>) uses it too.
 *
 * The function is restated in full (CREATE OR REPLACE): this is relay_commit as version 3 leaves it, history
 * that never changes; migration 2 has the one before, migration 6 the next.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 3,
  name: 'relay_commit linear in the group size: unnest, INSERT … ON CONFLICT on (merchant, reference, environment)',
  up: `
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
`,
};
