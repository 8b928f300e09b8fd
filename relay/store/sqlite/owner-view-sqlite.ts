/**
 * The owner's view on SQLite (the one merchant, `MCH_default`): the hourly summary and the viewer links.
 * The summary was kept by a trigger on `events` (migration 5); since migration 7 the committer writes it
 * (EventLog.apply), in the group commit's own transaction and only for an event really inserted, so a
 * repeat never counts twice. Migration 5's SQL stays as `rebuildOwnerSummary`: the same rules, read from
 * the stored JSON (json_valid: the receiver refuses JSON deeper than SQLite's JSON functions read). See
 * store/owner-view.ts.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../../../shared/sqlite.js';
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

/** A text field of the transaction's metadata, or '' when absent or not text (bounded: outside text). */
const metaText = (field: string, max: number) =>
  `CASE WHEN json_type(NEW.transaction_json, '$.metadata.${field}') = 'text'
     THEN substr(json_extract(NEW.transaction_json, '$.metadata.${field}'), 1, ${max}) ELSE '' END`;
const pesewas = (field: string) => `coalesce(CAST(replace(json_extract(NEW.transaction_json, '$.${field}'), '.', '') AS INTEGER), 0)`;

/** The summary row of one event (NEW): amounts are exactly two places on the wire, so dropping the point gives pesewas. */
const SUMMARY_VALUES = `
  NEW.environment,
  coalesce(CAST(strftime('%s', json_extract(NEW.transaction_json, '$.completedAt')) AS INTEGER),
           CAST(strftime('%s', NEW.received_at) AS INTEGER), 0) / 3600,
  ${metaText('till', 64)}, ${metaText('tillName', 40)}, ${metaText('cashierId', 64)}, ${metaText('cashier', 40)},
  substr(coalesce(json_extract(NEW.transaction_json, '$.customer.network'), ''), 1, 32),
  coalesce(json_extract(NEW.transaction_json, '$.status') = 'SUCCESS', 0),
  coalesce(json_extract(NEW.transaction_json, '$.status') = 'FAILED', 0),
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('amount')} ELSE 0 END,
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('fee')} ELSE 0 END,
  CASE WHEN json_extract(NEW.transaction_json, '$.status') = 'SUCCESS' THEN ${pesewas('net')} ELSE 0 END`;

export const SUMMARY_INSERT = `INSERT INTO owner_hourly (environment, hour, till_id, till_name, cashier_id, cashier_name, network,
    succeeded, failed, gross, fees, net)`;

export const SUMMARY_UPSERT = `ON CONFLICT (environment, hour, till_id, cashier_id, network) DO UPDATE SET
    succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed, gross = gross + excluded.gross,
    fees = fees + excluded.fees, net = net + excluded.net,
    till_name = CASE WHEN excluded.till_name <> '' THEN excluded.till_name ELSE till_name END,
    cashier_name = CASE WHEN excluded.cashier_name <> '' THEN excluded.cashier_name ELSE cashier_name END`;

/**
 * Sums the whole log again from the stored JSON with the SQL above (migration 5; the tests compare the
 * committer's rows with it). WHERE: SQLite's upsert-from-SELECT syntax.
 */
export function rebuildOwnerSummary(db: Database.Database): void {
  db.exec('DELETE FROM owner_hourly');
  db.exec(`${SUMMARY_INSERT} SELECT ${SUMMARY_VALUES.replaceAll('NEW.', 'e.')} FROM events e
    WHERE json_valid(e.transaction_json) ORDER BY e.seq ${SUMMARY_UPSERT}`);
}

/** Migration 4 of relay.sqlite (the coordinator renumbers at merge). */
export const OWNER_VIEW_MIGRATION: Migration = {
  version: 5,
  name: "owner's view: hourly summary (kept by a trigger, in the commit's transaction) and viewer links",
  up: (db) => {
    db.exec(`
    CREATE TABLE IF NOT EXISTS owner_hourly (
      environment TEXT NOT NULL, hour INTEGER NOT NULL,
      till_id TEXT NOT NULL, till_name TEXT NOT NULL, cashier_id TEXT NOT NULL, cashier_name TEXT NOT NULL, network TEXT NOT NULL,
      succeeded INTEGER NOT NULL, failed INTEGER NOT NULL, gross INTEGER NOT NULL, fees INTEGER NOT NULL, net INTEGER NOT NULL,
      PRIMARY KEY (environment, hour, till_id, cashier_id, network)
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS events_owner_summary AFTER INSERT ON events WHEN json_valid(NEW.transaction_json) BEGIN
      ${SUMMARY_INSERT} VALUES (${SUMMARY_VALUES}) ${SUMMARY_UPSERT};
    END;
    CREATE TABLE IF NOT EXISTS owner_links (
      id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      label TEXT NOT NULL, time_zone TEXT NOT NULL, created_by TEXT NOT NULL, created_at TEXT NOT NULL,
      last_used_at TEXT, revoked_at TEXT
    ) STRICT;`);
    // Events already in the log are summed once, as the trigger would have.
    // Rebuilt from the events whatever a database rolled back to an older version still held.
    rebuildOwnerSummary(db);
  },
};

/** Migration 6 of relay.sqlite: who turned a link off (the shop owner at the till, or the operator). */
export const OWNER_LINK_REVOKER_MIGRATION: Migration = {
  version: 6,
  name: "owner's view: who turned a link off (owner or operator)",
  // Idempotent like migration 5: a database rolled back to an older version may already hold the column.
  up: (db) => {
    const columns = db.prepare('PRAGMA table_info(owner_links)').all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'revoked_by')) {
      db.exec("ALTER TABLE owner_links ADD COLUMN revoked_by TEXT CHECK (revoked_by IN ('owner', 'operator'))");
    }
    db.exec("UPDATE owner_links SET revoked_by = 'owner' WHERE revoked_at IS NOT NULL AND revoked_by IS NULL");
  },
};

/**
 * Migration 7: the summary row of an accepted event is written by the committer (EventLog.apply) from the
 * fields the receiver worked out from the parsed transaction (store/owner-summary.ts), instead of by a
 * trigger reading the JSON again with a dozen json_extract calls inside the commit
 * (docs/performance.md). Same rules, same transaction; PostgreSQL does the same (its migration 9).
 */
export const OWNER_SUMMARY_BY_COMMITTER_MIGRATION: Migration = {
  version: 7,
  name: "owner's view: summary rows written by the committer from the parsed transaction (no trigger)",
  up: 'DROP TRIGGER IF EXISTS events_owner_summary',
};

type LinkRow = {
  id: string;
  environment: Environment;
  label: string;
  time_zone: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: OwnerLinkRevoker | null;
};

const LINK_COLUMNS = 'id, environment, label, time_zone, created_by, created_at, last_used_at, revoked_at, revoked_by';
const EVENT_COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

export class SqliteOwnerView implements OwnerViewStore {
  constructor(
    private readonly db: Database.Database,
    private readonly merchantId: string,
  ) {}

  private toLink(row: LinkRow): OwnerLink {
    return {
      id: row.id,
      merchantId: this.merchantId,
      environment: row.environment,
      label: row.label,
      timeZone: row.time_zone,
      createdBy: row.created_by,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
      revokedBy: row.revoked_at ? (row.revoked_by ?? 'owner') : null,
    };
  }

  async createLink(link: NewOwnerLink): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO owner_links (id, token_hash, environment, label, time_zone, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(link.id, link.tokenHash, link.environment, link.label, link.timeZone, link.createdBy, link.createdAt);
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
    const rows = this.db.prepare('SELECT id, revoked_at, revoked_by FROM owner_links').all() as LinkRow[];
    const known = new Map(rows.map((r) => [r.id, r]));
    const off = new Map<string, OwnerLinkRevoker>();
    for (const id of ids) {
      const row = known.get(id);
      if (!row) off.set(id, 'operator');
      else if (row.revoked_at) off.set(id, row.revoked_by ?? 'owner');
    }
    return off;
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
