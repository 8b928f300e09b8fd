/**
 * The owner's view on PostgreSQL: the per-merchant hourly summary, written by relay_commit inside its
 * transaction for the events it accepts (never a repeat: migrations/0009-summary-in-commit.ts), and the
 * viewer links. See store/owner-view.ts.
 */
import type pg from 'pg';
import type { Environment } from '../../../shared/domain.js';
import { SUMS_COLUMNS, type EventRow, type OwnerBreakdownRow, type OwnerSums, type OwnerViewStore } from '../index.js';
import type { OwnerDeviceStore } from '../owner-devices.js';
import {
  NEW_LINK_COLUMNS,
  newLinkValues,
  revokersAmong,
  type LinkRevokerRow,
  type NewOwnerLink,
  type OwnerLink,
  type OwnerLinkRevoker,
} from '../owner-link.js';
import { PgOwnerDevices } from './owner-devices-pg.js';
import { LINK_COLUMNS, toLink, type LinkRow } from './owner-link-row.js';
import { linksOn, OwnerLinkTurns } from './owner-link-turns.js';

const EVENT_COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

const numbers = <T extends OwnerSums>(row: T): T => ({
  ...row,
  succeeded: Number(row.succeeded),
  failed: Number(row.failed),
  gross: Number(row.gross),
  fees: Number(row.fees),
  net: Number(row.net),
});

export class PgOwnerView implements OwnerViewStore {
  readonly devices: OwnerDeviceStore;
  private readonly turns: OwnerLinkTurns;

  constructor(private readonly pool: pg.Pool) {
    this.turns = new OwnerLinkTurns(pool);
    this.devices = new PgOwnerDevices(pool, this.turns);
  }

  async createLink(link: NewOwnerLink, max: number): Promise<'made' | 'full'> {
    const merchant = link.merchantId;
    return this.turns.run(merchant, async (client) => {
      if ((await linksOn(client, merchant, link.createdAt)) >= max) return 'full' as const;
      await client.query(`INSERT INTO owner_links (merchant_id, ${NEW_LINK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
        merchant,
        ...newLinkValues(link),
      ]);
      return 'made' as const;
    });
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
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<LinkRevokerRow>('SELECT id, revoked_at, revoked_by FROM owner_links WHERE id = ANY($1)', [ids]);
    return revokersAmong(ids, rows);
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
