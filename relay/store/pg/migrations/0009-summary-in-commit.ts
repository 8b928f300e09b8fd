/**
 * The owner's summary is written by relay_commit from fields Node has already worked out
 * (store/owner-summary.ts), as one grouped upsert per commit, instead of by a row trigger on `events`.
 *
 * Why:
 * - Speed. The trigger read each event's JSON, ran two regexes and parsed a time inside the commit, for
 *   every event: a large part of what an event cost.
 * - A defect. A repeat of a pruned event is inserted, found in pruned_references and taken back; the trigger
 *   had already added it to the summary a second time. Here only events relay_commit answers as accepted are
 *   summed, so a taken-back insert never counts.
 *
 * The summary rows of one commit are grouped by their key before the upsert (ON CONFLICT may not touch one
 * row twice in a statement); a group's name is the last non-empty one in delivery order, as the trigger's
 * one-by-one upserts left it. relay_owner_add (migration 7) stays for imports, which insert events directly
 * (import-sqlite.ts).
 *
 * relay_commit takes new arguments, so it is dropped and made again, in full: the function as version 9
 * leaves it, history that never changes; migration 6 has the one before.
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 9,
  name: "owner's summary written by relay_commit from fields worked out in Node, only for accepted events (no trigger)",
  up: `
DROP TRIGGER events_owner_summary ON events;
DROP FUNCTION relay_owner_summary();
DROP FUNCTION relay_commit(text, text[], text[], text[], text[], text[], text[], text[], bigint[]);
CREATE FUNCTION relay_commit(
  p_merchant text, p_environment text[], p_reference text[], p_client_reference text[], p_key_id text[],
  p_received_at text[], p_webhook_created_at text[], p_transaction_json text[], p_timestamp bigint[],
  p_hour bigint[], p_till_id text[], p_till_name text[], p_cashier_id text[], p_cashier_name text[], p_network text[],
  p_succeeded integer[], p_failed integer[], p_gross bigint[], p_fees bigint[], p_net bigint[])
RETURNS TABLE (o_kind text, o_seq bigint, o_environment text, o_json text, o_previous_timestamp bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_last bigint;
  v_first bigint;
  v_seq bigint;
  v_latest bigint;
  v_i integer := 0;
  v_new boolean[];
  d record;
  p record;
BEGIN
  SELECT m.last_seq INTO v_last FROM merchants m WHERE m.id = p_merchant FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'unknown merchant %', p_merchant USING ERRCODE = 'foreign_key_violation';
  END IF;
  v_first := v_last;
  v_new := array_fill(false, ARRAY[coalesce(array_length(p_reference, 1), 0)]);
  FOR d IN
    SELECT * FROM unnest(p_environment, p_reference, p_client_reference, p_key_id, p_received_at, p_webhook_created_at,
                         p_transaction_json, p_timestamp)
      AS u(environment, reference, client_reference, key_id, received_at, webhook_created_at, transaction_json, ts)
  LOOP
    v_i := v_i + 1;
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
        v_new[v_i] := true;
        o_kind := 'accepted'; o_seq := v_seq;
      ELSE
        -- A repeat of a pruned event: the insert is taken back (its number is used again, no gap), and it is not summed.
        DELETE FROM events WHERE merchant_id = p_merchant AND seq = v_seq;
        o_seq := p.seq;
        IF p.transaction_sha256 = relay_state_hash(d.transaction_json) THEN
          UPDATE pruned_references SET deliveries = deliveries + 1, latest_timestamp = greatest(latest_timestamp, d.ts)
            WHERE merchant_id = p_merchant AND reference = d.reference AND environment = d.environment;
          o_kind := 'duplicate'; o_previous_timestamp := greatest(p.latest_timestamp, d.ts);
        ELSE
          o_kind := 'conflict'; o_environment := d.environment;
        END IF;
      END IF;
    ELSE
      o_kind := 'duplicate'; o_seq := v_seq; o_previous_timestamp := v_latest;
    END IF;
    RETURN NEXT;
  END LOOP;
  IF v_last > v_first THEN
    INSERT INTO owner_hourly AS o (merchant_id, environment, hour, till_id, till_name, cashier_id, cashier_name, network,
                                   succeeded, failed, gross, fees, net)
      SELECT p_merchant, s.environment, s.hour, s.till_id,
             coalesce((array_agg(s.till_name ORDER BY s.i DESC) FILTER (WHERE s.till_name <> ''))[1], ''),
             s.cashier_id,
             coalesce((array_agg(s.cashier_name ORDER BY s.i DESC) FILTER (WHERE s.cashier_name <> ''))[1], ''),
             s.network, sum(s.succeeded), sum(s.failed), sum(s.gross), sum(s.fees), sum(s.net)
        FROM unnest(p_environment, p_hour, p_till_id, p_till_name, p_cashier_id, p_cashier_name, p_network,
                    p_succeeded, p_failed, p_gross, p_fees, p_net) WITH ORDINALITY
          AS s(environment, hour, till_id, till_name, cashier_id, cashier_name, network, succeeded, failed, gross, fees, net, i)
        WHERE v_new[s.i] AND s.hour IS NOT NULL
        GROUP BY s.environment, s.hour, s.till_id, s.cashier_id, s.network
      ON CONFLICT (merchant_id, environment, hour, till_id, cashier_id, network) DO UPDATE SET
        succeeded = o.succeeded + excluded.succeeded, failed = o.failed + excluded.failed, gross = o.gross + excluded.gross,
        fees = o.fees + excluded.fees, net = o.net + excluded.net,
        till_name = CASE WHEN excluded.till_name <> '' THEN excluded.till_name ELSE o.till_name END,
        cashier_name = CASE WHEN excluded.cashier_name <> '' THEN excluded.cashier_name ELSE o.cashier_name END;
    UPDATE merchants SET last_seq = v_last WHERE id = p_merchant;
    PERFORM pg_notify('relay_events', p_merchant || ' ' || v_last);
  END IF;
END $$;
`,
};
