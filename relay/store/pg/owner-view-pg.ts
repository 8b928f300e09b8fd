/**
 * The owner's view on PostgreSQL: the per-merchant hourly summary, written by relay_commit inside its
 * transaction for the events it accepts (never a repeat), and the viewer links. See store/owner-view.ts.
 */
import type pg from 'pg';
import type { Environment } from '../../../shared/domain.js';
import {
  SUMS_COLUMNS,
  type EventRow,
  type NewOwnerLink,
  type OwnerBreakdownRow,
  type OwnerLink,
  type OwnerLinkRevoker,
  type OwnerSums,
  type OwnerViewStore,
} from '../index.js';

const SUMMARY_FUNCTION = `
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
`;

/** Migration 7 of the PostgreSQL schema (schema.ts lists it). */
export const PG_OWNER_VIEW_MIGRATION = {
  version: 7,
  name: "owner's view: hourly summary kept by a trigger on events, viewer links",
  up: SUMMARY_FUNCTION,
};

/** Migration 8: who turned a link off (the shop owner at the till, or the operator: CLI or admin API). */
export const PG_OWNER_LINK_REVOKER_MIGRATION = {
  version: 8,
  name: "owner's view: who turned a link off (owner or operator)",
  up: `
ALTER TABLE owner_links ADD COLUMN revoked_by text CHECK (revoked_by IN ('owner', 'operator'));
UPDATE owner_links SET revoked_by = 'owner' WHERE revoked_at IS NOT NULL;
`,
};

type LinkRow = {
  id: string;
  merchant_id: string;
  environment: Environment;
  label: string;
  time_zone: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: OwnerLinkRevoker | null;
};

export const LINK_COLUMNS = 'id, merchant_id, environment, label, time_zone, created_by, created_at, last_used_at, revoked_at, revoked_by';
const EVENT_COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

export const toLink = (row: LinkRow): OwnerLink => ({
  id: row.id,
  merchantId: row.merchant_id,
  environment: row.environment,
  label: row.label,
  timeZone: row.time_zone,
  createdBy: row.created_by,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
  revokedBy: row.revoked_at ? (row.revoked_by ?? 'owner') : null,
});

const numbers = <T extends OwnerSums>(row: T): T => ({
  ...row,
  succeeded: Number(row.succeeded),
  failed: Number(row.failed),
  gross: Number(row.gross),
  fees: Number(row.fees),
  net: Number(row.net),
});

export class PgOwnerView implements OwnerViewStore {
  constructor(private readonly pool: pg.Pool) {}

  async createLink(link: NewOwnerLink): Promise<void> {
    await this.pool.query(
      `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [link.id, link.merchantId, link.tokenHash, link.environment, link.label, link.timeZone, link.createdBy, link.createdAt],
    );
  }

  async listLinks(merchantId: string): Promise<OwnerLink[]> {
    const { rows } = await this.pool.query<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM owner_links WHERE merchant_id = $1 ORDER BY created_at DESC, id`,
      [merchantId],
    );
    return rows.map(toLink);
  }

  async findLink(tokenHash: string): Promise<OwnerLink | undefined> {
    const { rows } = await this.pool.query<LinkRow>({
      name: 'owner_find_link',
      text: `SELECT ${LINK_COLUMNS} FROM owner_links WHERE token_hash = $1`,
      values: [tokenHash],
    });
    return rows[0] && toLink(rows[0]);
  }

  async revokeLink(merchantId: string, id: string, at: string, by: OwnerLinkRevoker = 'owner'): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE owner_links SET revoked_at = coalesce(revoked_at, $3), revoked_by = CASE WHEN revoked_at IS NULL THEN $4 ELSE revoked_by END
       WHERE merchant_id = $1 AND id = $2`,
      [merchantId, id, at, by],
    );
    return (rowCount ?? 0) > 0;
  }

  async touchLink(id: string, at: string): Promise<void> {
    await this.pool.query('UPDATE owner_links SET last_used_at = $2 WHERE id = $1', [id, at]);
  }

  async revokedAmong(ids: string[]): Promise<Map<string, OwnerLinkRevoker>> {
    const off = new Map<string, OwnerLinkRevoker>();
    if (ids.length === 0) return off;
    const { rows } = await this.pool.query<{ id: string; revoked_at: string | null; revoked_by: OwnerLinkRevoker | null }>(
      'SELECT id, revoked_at, revoked_by FROM owner_links WHERE id = ANY($1)',
      [ids],
    );
    const known = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const row = known.get(id);
      if (!row)
        off.set(id, 'operator'); // gone with its merchant
      else if (row.revoked_at) off.set(id, row.revoked_by ?? 'owner');
    }
    return off;
  }

  async setTimeZone(merchantId: string, timeZone: string): Promise<number> {
    const { rowCount } = await this.pool.query('UPDATE owner_links SET time_zone = $2 WHERE merchant_id = $1 AND time_zone <> $2', [
      merchantId,
      timeZone,
    ]);
    return rowCount ?? 0;
  }

  async breakdown(merchantId: string, environment: Environment, fromHour: number, toHour: number): Promise<OwnerBreakdownRow[]> {
    const { rows } = await this.pool.query<OwnerBreakdownRow>({
      name: 'owner_breakdown',
      text: `SELECT till_id AS "tillId", max(till_name) AS "tillName", cashier_id AS "cashierId", max(cashier_name) AS "cashierName",
               network, ${SUMS_COLUMNS}
             FROM owner_hourly WHERE merchant_id = $1 AND environment = $2 AND hour >= $3 AND hour < $4
             GROUP BY till_id, cashier_id, network`,
      values: [merchantId, environment, fromHour, toHour],
    });
    return rows.map(numbers);
  }

  async hourly(
    merchantId: string,
    environment: Environment,
    fromHour: number,
    toHour: number,
  ): Promise<Array<OwnerSums & { hour: number }>> {
    const { rows } = await this.pool.query<OwnerSums & { hour: number }>({
      name: 'owner_hourly',
      text: `SELECT hour, ${SUMS_COLUMNS} FROM owner_hourly
             WHERE merchant_id = $1 AND environment = $2 AND hour >= $3 AND hour < $4 GROUP BY hour`,
      values: [merchantId, environment, fromHour, toHour],
    });
    return rows.map((r) => ({ ...numbers(r), hour: Number(r.hour) }));
  }

  async latest(merchantId: string, environment: Environment, limit: number): Promise<EventRow[]> {
    const { rows } = await this.pool.query<EventRow & { seq: string | number }>({
      name: 'owner_latest',
      text: `SELECT ${EVENT_COLUMNS} FROM events WHERE merchant_id = $1 AND environment = $2 ORDER BY seq DESC LIMIT $3`,
      values: [merchantId, environment, limit],
    });
    return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
  }
}
