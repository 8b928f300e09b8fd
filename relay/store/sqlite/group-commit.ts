/**
 * The SQLite committer (SqliteStore's write side, `DeliveryCommitter` below). Deliveries queued
 * while the event loop polls the network are committed together right after the poll
 * (setImmediate), in ONE transaction (BEGIN IMMEDIATE, one fsync with synchronous=FULL), and only
 * then settled; while a commit runs, new deliveries wait in the socket buffers and form the next
 * group, so the group grows with the load. On the main thread rather than a writer thread: handing
 * each group to another thread (serialising, two wake-ups a commit) costs more CPU than the wait for
 * the fsync it would save.
 *
 * A group whose transaction fails for a reason tied to one delivery is retried one by one, so one
 * bad delivery cannot sink the rest; if the database cannot be written (locked, read-only, full,
 * I/O error), every delivery of the group gets the error (503: the instance's trouble).
 */
import type Database from 'better-sqlite3';
import { openRelayDatabase } from './db.js';
import { EventLog } from './event-log.js';
import { SqlitePruner, type PrunedStretch } from './prune.js';
import { writeTillReads } from './till-reads-sqlite.js';
import type { LogFn } from '../../ops/index.js';
import { CommitError, type ApplyOutcome, type CommitWaiter, type Delivery, type TillRead } from '../index.js';

/** Called once per commit, after it is durable and before any delivery of it is answered. */
export type CommitListener = (outcomes: Array<{ delivery: Delivery; outcome: ApplyOutcome }>, commitSize: number) => void;

/** The write side: where a verified delivery is committed. */
export interface DeliveryCommitter {
  /** Queues a delivery; `waiter.settle` is called once it is durable, or its commit failed. */
  enqueue(delivery: Delivery, waiter: CommitWaiter): void;
  /** True when deliveries wait for a commit window rather than the receiver's `flush`. */
  readonly windowed: boolean;
  /** Commits everything queued now. */
  flush(): void;
  /** Stops taking deliveries, commits and settles the queued ones, releases the store. */
  close(): Promise<void>;
}

const ENVIRONMENTAL = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;

/** `instanceWide`: the database file itself is failing (locked, full, read-only), not this delivery. */
type ItemResult = { outcome: ApplyOutcome; error?: undefined } | { outcome?: undefined; error: string; instanceWide: boolean };

export class GroupCommitter implements DeliveryCommitter {
  /** Verified, not yet committed; committed at the next check phase (or after windowMs). */
  private deliveries: Delivery[] = [];
  private waiters: CommitWaiter[] = [];
  private scheduled = false;
  private closed = false;
  private readonly db: Database.Database;
  private readonly commitAll: Database.Transaction<(deliveries: Delivery[]) => ItemResult[]>;
  private readonly commitOne: Database.Transaction<(d: Delivery) => ApplyOutcome>;
  private readonly pruner: SqlitePruner;
  private readonly flushNow = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly options: {
      dataDir: string;
      busyTimeoutMs: number;
      maxBatch: number;
      windowMs: number;
      onCommit: CommitListener;
      log: LogFn;
    },
  ) {
    // The only write connection to the event log (readers use their own).
    this.db = openRelayDatabase(options.dataDir, { busyTimeoutMs: options.busyTimeoutMs });
    const eventLog = new EventLog(this.db);
    this.commitAll = this.db.transaction((deliveries: Delivery[]) =>
      eventLog.applyGroup(deliveries).map((outcome): ItemResult => ({ outcome })),
    );
    this.commitOne = this.db.transaction((d: Delivery) => eventLog.apply(d));
    this.pruner = new SqlitePruner(this.db);
  }

  /** Retention: one batch, on this (the only) write connection, so it runs between two commits, never during one. */
  prune(before: string, limit: number): PrunedStretch | null {
    if (this.closed) return null;
    return this.pruner.prune(before, limit);
  }

  /** The tills' read marks, on the only write connection, between two commits. */
  writeReads(reads: readonly TillRead[]): void {
    if (!this.closed && reads.length > 0) writeTillReads(this.db, reads);
  }

  /**
   * Queues a delivery; `waiter.settle` is called once its outcome is committed to disk, or the
   * commit failed. The commit happens at the next check phase, or at once with `flush()`.
   */
  enqueue(delivery: Delivery, waiter: CommitWaiter): void {
    if (this.closed) {
      waiter.settle(new CommitError('relay is shutting down', true), null, delivery);
      return;
    }
    this.deliveries.push(delivery);
    this.waiters.push(waiter);
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.options.windowMs > 0) setTimeout(this.flushNow, this.options.windowMs);
    else setImmediate(this.flushNow);
  }

  /** True when deliveries are waiting for a commit window (groupCommitWindowMs) rather than the next turn. */
  get windowed(): boolean {
    return this.options.windowMs > 0;
  }

  /** Commits everything queued now, in groups of at most maxBatch, then settles each delivery. */
  flush(): void {
    while (this.deliveries.length > 0) {
      const max = this.options.maxBatch;
      let deliveries = this.deliveries;
      let waiters = this.waiters;
      if (deliveries.length > max) {
        this.deliveries = deliveries.slice(max);
        this.waiters = waiters.slice(max);
        deliveries = deliveries.slice(0, max);
        waiters = waiters.slice(0, max);
      } else {
        this.deliveries = [];
        this.waiters = [];
      }
      this.settle(deliveries, waiters, this.commit(deliveries));
    }
  }

  private commit(deliveries: Delivery[]): ItemResult[] {
    try {
      return this.commitAll.immediate(deliveries);
    } catch (err) {
      const message = (err as Error).message;
      // Locked, read-only, full or failing disk: nothing in the group can commit now (503 to all).
      const environmental = ENVIRONMENTAL.test(String((err as { code?: unknown }).code));
      if (deliveries.length === 1 || environmental) return deliveries.map(() => ({ error: message, instanceWide: environmental }));
      // Otherwise the group's transaction rolled back as a whole: retry one by one.
      return deliveries.map((d): ItemResult => {
        try {
          return { outcome: this.commitOne.immediate(d) };
        } catch (e) {
          return { error: (e as Error).message, instanceWide: ENVIRONMENTAL.test(String((e as { code?: unknown }).code)) };
        }
      });
    }
  }

  private settle(deliveries: Delivery[], waiters: CommitWaiter[], results: ItemResult[]): void {
    const committed: Array<{ delivery: Delivery; outcome: ApplyOutcome }> = [];
    for (let i = 0; i < results.length; i++) {
      const outcome = (results[i] as ItemResult).outcome;
      if (outcome) committed.push({ delivery: deliveries[i] as Delivery, outcome });
    }
    try {
      if (committed.length > 0) this.options.onCommit(committed, committed.length);
    } catch (err) {
      // The commit is durable whatever the listener did: still answer every delivery.
      this.options.log({ level: 'error', msg: 'commit_listener_failed', error: (err as Error).message });
    } finally {
      for (let i = 0; i < results.length; i++) {
        const r = results[i] as ItemResult;
        const waiter = waiters[i] as CommitWaiter;
        try {
          if (r.outcome) waiter.settle(null, r.outcome, deliveries[i] as Delivery);
          else waiter.settle(new CommitError(r.error, r.instanceWide), null, deliveries[i] as Delivery);
        } catch (err) {
          this.options.log({ level: 'error', msg: 'commit_waiter_failed', error: (err as Error).message });
        }
      }
    }
  }

  /** Stops taking deliveries, commits and answers the queued ones, then closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.flush();
    this.db.close();
  }
}
