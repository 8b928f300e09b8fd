/**
 * Retention never stops on one row. relay_prune (migration 6) hashed a whole batch in one statement, so one
 * event whose JSON jsonb cannot read (U+0000, an unpaired surrogate: stored before the relay refused them)
 * failed every batch of its merchant, every pass. relay_prune_batch hashes each event on its own: one it
 * cannot hash is moved whole to events_set_aside, its reference kept in pruned_references (hashed from its
 * text as stored) so a repeat is still no new event, and the batch goes on. It returns the stretch pruned
 * and the events set aside, so the log names the merchant and the sequences.
 *
 * relay_prune stays as migration 6 left it, for an instance not yet upgraded during a rolling upgrade.
 * The hash is tried in a block of its own (no write inside it, so no subtransaction id is taken).
 */
import type { PgMigration } from './migrate.js';

export const migration: PgMigration = {
  version: 11,
  name: 'retention sets aside an event it cannot hash: events_set_aside, relay_prune_batch',
  up: `
CREATE TABLE events_set_aside (
  merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
  seq bigint NOT NULL,
  reference text NOT NULL,
  environment text NOT NULL,
  received_at text NOT NULL,
  transaction_json text NOT NULL,
  reason text NOT NULL,
  PRIMARY KEY (merchant_id, seq)
);

CREATE FUNCTION relay_prune_batch(p_merchant text, p_before text, p_limit integer)
RETURNS TABLE (o_count integer, o_from bigint, o_through bigint, o_set_aside bigint[], o_reasons text[])
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  v_hash bytea;
BEGIN
  o_count := 0; o_set_aside := '{}'; o_reasons := '{}';
  -- One pruner per merchant at a time (instances share the work); a busy merchant is skipped this turn.
  IF NOT pg_try_advisory_xact_lock(hashtext('momo-relay-prune'), hashtext(p_merchant)) THEN
    RETURN NEXT;
    RETURN;
  END IF;
  FOR r IN
    SELECT e.seq, e.reference, e.environment, e.received_at, e.transaction_json, e.latest_timestamp, e.deliveries
      FROM events e WHERE e.merchant_id = p_merchant ORDER BY e.seq LIMIT p_limit
  LOOP
    -- The oldest events up to the first one still kept: the pruned part stays one stretch from the start.
    EXIT WHEN r.received_at >= p_before;
    BEGIN
      v_hash := relay_state_hash(r.transaction_json);
    EXCEPTION WHEN others THEN
      v_hash := sha256(convert_to(r.transaction_json, 'UTF8'));
      INSERT INTO events_set_aside (merchant_id, seq, reference, environment, received_at, transaction_json, reason)
        VALUES (p_merchant, r.seq, r.reference, r.environment, r.received_at, r.transaction_json, SQLERRM)
        ON CONFLICT DO NOTHING;
      o_set_aside := o_set_aside || r.seq;
      o_reasons := o_reasons || SQLERRM;
    END;
    INSERT INTO pruned_references (merchant_id, reference, environment, seq, transaction_sha256, latest_timestamp, deliveries)
      VALUES (p_merchant, r.reference, r.environment, r.seq, v_hash, r.latest_timestamp, r.deliveries)
      ON CONFLICT DO NOTHING;
    o_from := coalesce(o_from, r.seq);
    o_through := r.seq;
    o_count := o_count + 1;
  END LOOP;
  IF o_count > 0 THEN
    DELETE FROM events WHERE merchant_id = p_merchant AND seq BETWEEN o_from AND o_through;
    INSERT INTO event_retention (merchant_id, pruned_through) VALUES (p_merchant, o_through)
      ON CONFLICT (merchant_id) DO UPDATE SET pruned_through = greatest(event_retention.pruned_through, excluded.pruned_through);
  END IF;
  RETURN NEXT;
END $$;
`,
};
