/** Where the till is in an environment's relay log (table relay_cursor): the last sequence applied, and which log it belongs to. */
import type { Environment } from '../../../shared/domain.js';
import type { Db } from '../storage/index.js';
import type { Logger } from '../logger.js';

/** Why the cursor went back to 0 (logged; never personal data). */
export type ResetReason = 'log_changed' | 'cursor_ahead' | 'log_forked';

/** The receivedAt of a page's item `seq` (null when that item could not be read). */
export function receivedAtOf(items: unknown[], seq: number): string | null {
  const item = items.find((i) => (i as { seq?: unknown } | null)?.seq === seq) as { receivedAt?: unknown } | undefined;
  return typeof item?.receivedAt === 'string' ? item.receivedAt : null;
}

export class RelayCursor {
  /** A cursor kept for another relay URL means nothing here: it starts again from 0. */
  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly environment: Environment,
    relayUrl: string,
  ) {
    const row = db.prepare('SELECT relay_url FROM relay_cursor WHERE environment = ?').get(environment) as
      { relay_url: string } | undefined;
    if (!row || row.relay_url !== relayUrl) {
      db.prepare(
        'INSERT INTO relay_cursor (environment, relay_url, last_seq) VALUES (?, ?, 0) ON CONFLICT (environment) DO UPDATE SET relay_url = excluded.relay_url, last_seq = 0, log_id = NULL, last_received_at = NULL',
      ).run(environment, relayUrl);
    }
  }

  get lastSeq(): number {
    const row = this.db.prepare('SELECT last_seq FROM relay_cursor WHERE environment = ?').get(this.environment) as
      { last_seq: number } | undefined;
    return row?.last_seq ?? 0;
  }

  /** The receivedAt of the event at the cursor (the till names it when it resumes); null when unknown. */
  get receivedAt(): string | null {
    const row = this.db.prepare('SELECT last_received_at FROM relay_cursor WHERE environment = ?').get(this.environment) as
      { last_received_at: string | null } | undefined;
    return row?.last_received_at ?? null;
  }

  /** The relay log the cursor belongs to; null until the relay first names it. */
  get logId(): string | null {
    const row = this.db.prepare('SELECT log_id FROM relay_cursor WHERE environment = ?').get(this.environment) as
      { log_id: string | null } | undefined;
    return row?.log_id ?? null;
  }

  /**
   * Checks the relay's log id against the stored one. The first one seen is adopted (a cursor from
   * before log ids is kept). Another one means the relay's log was wiped or replaced: the cursor goes
   * back to 0 under the new id. Returns true when it did.
   */
  checkLog(logId: string | undefined): boolean {
    if (logId === undefined) return false;
    const stored = this.logId;
    if (stored === logId) return false;
    if (stored === null) {
      this.db.prepare('UPDATE relay_cursor SET log_id = ? WHERE environment = ?').run(logId, this.environment);
      return false;
    }
    this.reset('log_changed', logId, {});
    return true;
  }

  /** Back to 0, under the new log id when there is one. */
  reset(reason: ResetReason, logId: string | null, fields: { relayLastSeq?: number }): void {
    this.log.warn('relay.cursor_reset', { environment: this.environment, reason, cursor: this.lastSeq, ...fields });
    this.db
      .prepare('UPDATE relay_cursor SET last_seq = 0, last_received_at = NULL, log_id = coalesce(?, log_id) WHERE environment = ?')
      .run(logId, this.environment);
  }

  /**
   * The relay pruned (by its retention) the events after the cursor up to `prunedThrough`: logged, with
   * how many sequence numbers the till never saw (a result among them is settled by hand, like one that
   * never came), then the cursor moves there. A mark from another log resets the cursor instead. False
   * when the answer makes no sense (the mark is not past the cursor).
   */
  skipPruned(after: number, relay: { logId: string; prunedThrough: number }): boolean {
    if (relay.prunedThrough <= after) return false;
    if (this.checkLog(relay.logId)) return true;
    this.log.warn('relay.events_pruned', {
      environment: this.environment,
      cursor: after,
      prunedThrough: relay.prunedThrough,
      missed: relay.prunedThrough - after,
    });
    this.save(relay.prunedThrough, null);
    return true;
  }

  /** Moves forward only, to the event received at `receivedAt` (null: to no event the till read). */
  save(seq: number, receivedAt: string | null): void {
    this.db
      .prepare('UPDATE relay_cursor SET last_seq = ?, last_received_at = ? WHERE environment = ? AND last_seq < ?')
      .run(seq, receivedAt, this.environment, seq);
  }
}
