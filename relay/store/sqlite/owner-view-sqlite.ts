/**
 * The owner's view on SQLite (the one merchant, `MCH_default`): the hourly summary and the viewer links.
 * The committer writes the summary (EventLog.apply, with the upsert below), in the group commit's own
 * transaction and only for an event really inserted, so a repeat never counts twice; migration 5's SQL
 * (migrations/0005-owner-view.ts, `rebuildOwnerSummary`) sums the same from the stored JSON. See
 * store/owner-view.ts.
 */
import type Database from 'better-sqlite3';
import type { Environment } from '../../../shared/domain.js';
import { SUMS_COLUMNS, type EventRow, type OwnerBreakdownRow, type OwnerSums, type OwnerViewStore } from '../index.js';
import type { OwnerDeviceStore } from '../owner-devices.js';
import {
  LINK_COLUMNS,
  linkOn,
  NEW_LINK_COLUMNS,
  newLinkValues,
  revokersAmong,
  toOwnerLink,
  type LinkRow,
  type LinkRevokerRow,
  type NewOwnerLink,
  type OwnerLink,
  type OwnerLinkRevoker,
} from '../owner-link.js';
import { SqliteOwnerDevices } from './owner-devices-sqlite.js';

export const SUMMARY_INSERT = `INSERT INTO owner_hourly (environment, hour, till_id, till_name, cashier_id, cashier_name, network,
    succeeded, failed, gross, fees, net)`;

export const SUMMARY_UPSERT = `ON CONFLICT (environment, hour, till_id, cashier_id, network) DO UPDATE SET
    succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed, gross = gross + excluded.gross,
    fees = fees + excluded.fees, net = net + excluded.net,
    till_name = CASE WHEN excluded.till_name <> '' THEN excluded.till_name ELSE till_name END,
    cashier_name = CASE WHEN excluded.cashier_name <> '' THEN excluded.cashier_name ELSE cashier_name END`;

const EVENT_COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

export class SqliteOwnerView implements OwnerViewStore {
  readonly devices: OwnerDeviceStore;

  constructor(
    private readonly db: Database.Database,
    private readonly merchantId: string,
  ) {
    this.devices = new SqliteOwnerDevices(db, merchantId);
  }

  private toLink(row: LinkRow): OwnerLink {
    return toOwnerLink(row, this.merchantId);
  }

  async createLink(link: NewOwnerLink, max: number): Promise<'made' | 'full'> {
    // One transaction, taking the write lock first: no other writer can add a link between the count and the insert.
    const make = this.db.transaction(() => {
      const on = this.db.prepare(`SELECT count(*) AS n FROM owner_links WHERE ${linkOn('?')}`).get(link.createdAt) as { n: number };
      if (on.n >= max) return 'full';
      this.db.prepare(`INSERT INTO owner_links (${NEW_LINK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...newLinkValues(link));
      return 'made';
    });
    return make.immediate();
  }

  async listLinks(merchantId: string): Promise<OwnerLink[]> {
    if (merchantId !== this.merchantId) return [];
    const rows = this.db.prepare(`SELECT ${LINK_COLUMNS} FROM owner_links ORDER BY created_at DESC, id`).all() as LinkRow[];
    return rows.map((r) => this.toLink(r));
  }

  async findLink(tokenHash: string): Promise<OwnerLink | undefined> {
    const row = this.db.prepare(`SELECT ${LINK_COLUMNS} FROM owner_links WHERE token_hash = ?`).get(tokenHash) as LinkRow | undefined;
    return row && this.toLink(row);
  }

  async revokeLink(merchantId: string, id: string, at: string, by: OwnerLinkRevoker = 'owner'): Promise<boolean> {
    if (merchantId !== this.merchantId) return false;
    const found = this.db.prepare('SELECT 1 FROM owner_links WHERE id = ?').get(id);
    if (!found) return false;
    this.db.prepare('UPDATE owner_links SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL').run(at, by, id);
    return true;
  }

  async touchLink(id: string, at: string): Promise<void> {
    this.db.prepare('UPDATE owner_links SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  async revokedAmong(ids: string[]): Promise<Map<string, OwnerLinkRevoker>> {
    return revokersAmong(ids, this.db.prepare('SELECT id, revoked_at, revoked_by FROM owner_links').all() as LinkRevokerRow[]);
  }

  async setTimeZone(merchantId: string, timeZone: string): Promise<number> {
    if (merchantId !== this.merchantId) return 0;
    return this.db.prepare('UPDATE owner_links SET time_zone = ? WHERE time_zone <> ?').run(timeZone, timeZone).changes;
  }

  async breakdown(_merchantId: string, environment: Environment, fromHour: number, toHour: number): Promise<OwnerBreakdownRow[]> {
    const rows = this.db
      .prepare(
        `SELECT till_id AS tillId, max(till_name) AS tillName, cashier_id AS cashierId, max(cashier_name) AS cashierName, network,
           ${SUMS_COLUMNS} FROM owner_hourly WHERE environment = ? AND hour >= ? AND hour < ?
         GROUP BY till_id, cashier_id, network`,
      )
      .all(environment, fromHour, toHour);
    return rows as OwnerBreakdownRow[];
  }

  async hourly(
    _merchantId: string,
    environment: Environment,
    fromHour: number,
    toHour: number,
  ): Promise<Array<OwnerSums & { hour: number }>> {
    const rows = this.db
      .prepare(`SELECT hour, ${SUMS_COLUMNS} FROM owner_hourly WHERE environment = ? AND hour >= ? AND hour < ? GROUP BY hour`)
      .all(environment, fromHour, toHour);
    return rows as Array<OwnerSums & { hour: number }>;
  }

  async latest(_merchantId: string, environment: Environment, limit: number): Promise<EventRow[]> {
    return this.db
      .prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE environment = ? ORDER BY seq DESC LIMIT ?`)
      .all(environment, limit) as EventRow[];
  }
}
