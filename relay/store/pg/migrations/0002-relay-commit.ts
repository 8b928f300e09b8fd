/**
 * relay_commit: one group of one merchant's deliveries, committed in one transaction (the caller's statement).
 * The merchant's counter row is locked first and held until COMMIT, so this merchant's commits take their
 * numbers one after the other: numbers follow commit order, a reader never sees seq n+1 before n, and a
 * rolled-back commit gives its numbers back (no gaps). Repeats are looked up after the lock is taken, so the
 * same delivery racing on two instances is stored once: the second commit waits for the first and then finds
 * its row. Migrations 3, 6 and 9 restate the function in full, each as that version leaves it.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 2,
  name: 'relay_commit: per-merchant gapless group commit',
  up: `
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
`,
};
