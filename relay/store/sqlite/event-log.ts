/**
 * The durable event log on SQLite: one row per (environment, reference) (permanent dedupe by a
 * UNIQUE key), a gap-free ascending sequence number. `applyGroup` (and `apply`, a group of one) is the
 * write (run inside the group committer's transaction); the rest is the read side, `EventReader`, that SqliteStore serves
 * `RelayStore`'s reads from (store/relay-store.ts).
 */
import type Database from 'better-sqlite3';
import type { RelayEvent, RelayPage } from '../../../shared/relay-wire.js';
import type { Environment } from '../../../shared/domain.js';
import { readLogId } from './db.js';
import { SUMMARY_INSERT, SUMMARY_UPSERT } from './owner-view-sqlite.js';
import { SummaryBatch } from './summary-batch.js';
import {
  acceptedOutcome,
  canonicalJson,
  differingFields,
  PRUNED_CONFLICT_FIELDS,
  repeatOutcome,
  rowToEvent,
  stateHash,
  summaryOf,
  type ApplyOutcome,
  type Delivery,
  type EventRow,
} from '../index.js';

/** The read side: paging, look-ups and the event streams' catch-up. */
export interface EventReader {
  /** This log's identity: sequence numbers mean something only within it. */
  readonly logId: string;
  lastSeq(): number;
  /** Stored events after `after`, in sequence order, optionally one environment only. */
  rowsAfter(after: number, limit: number, environment?: Environment): EventRow[];
  page(after: number, limit: number, environment?: Environment): RelayPage;
  /** The event for `reference` in `environment`; without one, the latest of the two. */
  getByReference(reference: string, environment?: Environment): RelayEvent | undefined;
  getByClientReference(clientReference: string, environment?: Environment): RelayEvent | undefined;
  /** A cheap read of the store; the problem when it cannot be read (for /healthz). */
  probe(): string | null;
}

type PrunedRow = { seq: number; environment: Environment; transaction_sha256: string; latest_timestamp: number };

type ExistingRow = {
  seq: number;
  environment: Environment;
  transaction_json: string;
  latest_timestamp: number;
};

const EVENT_COLUMNS = 'seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json';

export class EventLog implements EventReader {
  private readonly findByReference;
  private readonly findPruned;
  private readonly touchPruned;
  private readonly prunedMark;
  private readonly insert;
  private readonly addSummary;
  private readonly touch;
  private readonly pageAll;
  private readonly pageEnv;
  private readonly byReference;
  private readonly byReferenceEnv;
  private readonly byClientRef;
  private readonly byClientRefEnv;
  private readonly maxSeq;
  /** This log's identity (made once with the database): sequence numbers mean something only within it. */
  readonly logId: string;

  constructor(readonly db: Database.Database) {
    this.logId = readLogId(db);
    this.findByReference = db.prepare<[string, string], ExistingRow>(
      'SELECT seq, environment, transaction_json, latest_timestamp FROM events WHERE environment = ? AND reference = ?',
    );
    this.findPruned = db.prepare<[string, string], PrunedRow>(
      'SELECT seq, environment, transaction_sha256, latest_timestamp FROM pruned_references WHERE environment = ? AND reference = ?',
    );
    this.touchPruned = db.prepare(
      'UPDATE pruned_references SET deliveries = deliveries + 1, latest_timestamp = MAX(latest_timestamp, ?) WHERE environment = ? AND reference = ?',
    );
    this.prunedMark = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'pruned_through'");
    this.insert = db.prepare(
      `INSERT INTO events (reference, client_reference, environment, key_id, received_at, webhook_created_at,
         transaction_json, first_timestamp, latest_timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.addSummary = db.prepare(`${SUMMARY_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${SUMMARY_UPSERT}`);
    this.touch = db.prepare('UPDATE events SET deliveries = deliveries + 1, latest_timestamp = MAX(latest_timestamp, ?) WHERE seq = ?');
    this.pageAll = db.prepare<[number, number], EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq LIMIT ?`);
    this.pageEnv = db.prepare<[string, number, number], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE environment = ? AND seq > ? ORDER BY seq LIMIT ?`,
    );
    // Both environments named, so the UNIQUE (environment, reference) index answers (two probes).
    this.byReference = db.prepare<[string], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE environment IN ('live', 'test') AND reference = ? ORDER BY seq DESC LIMIT 1`,
    );
    this.byReferenceEnv = db.prepare<[string, string], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE reference = ? AND environment = ?`,
    );
    this.byClientRef = db.prepare<[string], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE client_reference = ? ORDER BY seq DESC LIMIT 1`,
    );
    this.byClientRefEnv = db.prepare<[string, string], EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM events WHERE client_reference = ? AND environment = ? ORDER BY seq DESC LIMIT 1`,
    );
    // Pruning may have emptied the table: the log still reaches what was pruned.
    this.maxSeq = db.prepare<[], { seq: number | null }>(
      "SELECT MAX(COALESCE((SELECT MAX(seq) FROM events), 0), COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'pruned_through'), 0)) AS seq",
    );
  }

  /** Applies one delivery inside the caller's transaction. */
  apply(d: Delivery): ApplyOutcome {
    return this.applyGroup([d])[0] as ApplyOutcome;
  }

  /**
   * Applies a group of deliveries, in order, inside the caller's transaction: each as `apply` would,
   * with the owner's summary rows of the events really inserted added up per row key and written once
   * at the end (summary-batch.ts).
   */
  applyGroup(deliveries: Delivery[]): ApplyOutcome[] {
    const sums = new SummaryBatch();
    const outcomes: ApplyOutcome[] = new Array(deliveries.length);
    for (let i = 0; i < deliveries.length; i++) outcomes[i] = this.applyOne(deliveries[i] as Delivery, sums);
    sums.writeTo(this.addSummary);
    return outcomes;
  }

  private applyOne(d: Delivery, sums: SummaryBatch): ApplyOutcome {
    // Looked up first: an INSERT that hits the UNIQUE key would still use up a sequence number
    // (AUTOINCREMENT), and the log must stay gap-free.
    const existing = this.findByReference.get(d.environment, d.reference);
    if (existing) return this.repeat(existing, d);
    const pruned = this.findPruned.get(d.environment, d.reference);
    if (pruned) return this.prunedRepeat(pruned, d);
    const info = this.insert.run(
      d.reference,
      d.clientReference,
      d.environment,
      d.keyId,
      d.receivedAt,
      d.webhookCreatedAt,
      d.transactionJson,
      d.timestamp,
      d.timestamp,
    );
    // The owner's summary, in the same transaction, for an event really inserted only (never a repeat).
    const s = summaryOf(d);
    if (s) sums.add(d.environment, s);
    return acceptedOutcome(Number(info.lastInsertRowid), d);
  }

  private repeat(existing: ExistingRow, d: Delivery): ApplyOutcome {
    // Compared only on a repeat: the canonical form of the stored and the incoming final state.
    const stored = JSON.parse(existing.transaction_json) as Record<string, unknown>;
    const incoming = JSON.parse(d.transactionJson) as Record<string, unknown>;
    if (canonicalJson(stored) !== canonicalJson(incoming)) {
      return { kind: 'conflict', seq: existing.seq, storedEnvironment: existing.environment, fields: differingFields(stored, incoming) };
    }
    this.touch.run(d.timestamp, existing.seq);
    return repeatOutcome(existing.seq, existing.environment, existing.latest_timestamp, d);
  }

  /** A repeat of an event pruned by retention: told from a conflict by the hash of its final state. */
  private prunedRepeat(pruned: PrunedRow, d: Delivery): ApplyOutcome {
    if (stateHash(d.transactionJson) !== pruned.transaction_sha256) {
      return { kind: 'conflict', seq: pruned.seq, storedEnvironment: pruned.environment, fields: [...PRUNED_CONFLICT_FIELDS] };
    }
    this.touchPruned.run(d.timestamp, d.environment, d.reference);
    return repeatOutcome(pruned.seq, pruned.environment, pruned.latest_timestamp, d);
  }

  /** Every sequence up to this one was pruned (0: none). */
  prunedThrough(): number {
    return Number(this.prunedMark.get()?.value ?? 0);
  }

  /** Raw rows after `after`, in sequence order, optionally one environment only. */
  rowsAfter(after: number, limit: number, environment?: Environment): EventRow[] {
    return environment ? this.pageEnv.all(environment, after, limit) : this.pageAll.all(after, limit);
  }

  page(after: number, limit: number, environment?: Environment): RelayPage {
    const rows = this.rowsAfter(after, limit + 1, environment);
    const hasMore = rows.length > limit;
    const items = rows.slice(0, limit).map(rowToEvent);
    const last = items[items.length - 1];
    return { logId: this.logId, items, nextAfter: last ? last.seq : after, hasMore };
  }

  getByReference(reference: string, environment?: Environment): RelayEvent | undefined {
    const row = environment ? this.byReferenceEnv.get(reference, environment) : this.byReference.get(reference);
    return row ? rowToEvent(row) : undefined;
  }

  getByClientReference(clientReference: string, environment?: Environment): RelayEvent | undefined {
    const row = environment ? this.byClientRefEnv.get(clientReference, environment) : this.byClientRef.get(clientReference);
    return row ? rowToEvent(row) : undefined;
  }

  probe(): string | null {
    try {
      this.lastSeq();
      readLogId(this.db);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  }

  lastSeq(): number {
    return this.maxSeq.get()?.seq ?? 0;
  }
}
