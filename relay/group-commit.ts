/**
 * Group commit: deliveries that arrive together (same event-loop turn, or within a small
 * window) are written in ONE SQLite transaction and one fsync, then every one is answered.
 * Each delivery runs in its own savepoint, so one that fails does not sink the others.
 * Nothing is acknowledged before its transaction has committed.
 */
import type Database from 'better-sqlite3';
import type { ApplyOutcome, Delivery, EventLog } from './event-log.js';

type Pending = {
  delivery: Delivery;
  resolve: (outcome: ApplyOutcome) => void;
  reject: (err: unknown) => void;
};

export type CommitListener = (outcomes: Array<{ delivery: Delivery; outcome: ApplyOutcome }>, batchSize: number) => void;

export class GroupCommitter {
  private queue: Pending[] = [];
  private scheduled = false;
  private closed = false;
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: Database.Database,
    private readonly log: EventLog,
    private readonly options: { maxBatch: number; windowMs: number; onCommit: CommitListener },
  ) {}

  /** Resolves once the delivery's outcome is committed to disk; rejects when the commit failed. */
  submit(delivery: Delivery): Promise<ApplyOutcome> {
    if (this.closed) return Promise.reject(new Error('relay is shutting down'));
    this.inFlight++;
    return new Promise<ApplyOutcome>((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.schedule();
    }).finally(() => {
      this.inFlight--;
      if (this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.options.windowMs > 0) setTimeout(() => this.flush(), this.options.windowMs);
    else setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.options.maxBatch);
    if (this.queue.length > 0) this.schedule();
    if (batch.length === 0) return;

    const results: Array<{ p: Pending; outcome?: ApplyOutcome; error?: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const p of batch) {
          try {
            // Nested db.transaction = SAVEPOINT: a failing delivery rolls back alone.
            const outcome = this.db.transaction(() => this.log.apply(p.delivery))();
            results.push({ p, outcome });
          } catch (error) {
            results.push({ p, error });
          }
        }
      })();
    } catch (error) {
      // The commit itself failed: nothing in this batch is durable.
      for (const p of batch) p.reject(error);
      return;
    }
    const committed: Array<{ delivery: Delivery; outcome: ApplyOutcome }> = [];
    for (const r of results) {
      if (r.outcome) committed.push({ delivery: r.p.delivery, outcome: r.outcome });
    }
    try {
      this.options.onCommit(committed, batch.length);
    } finally {
      for (const r of results) {
        if (r.outcome) r.p.resolve(r.outcome);
        else r.p.reject(r.error);
      }
    }
  }

  /** Stops taking deliveries; resolves when every submitted one has been answered. */
  async drain(): Promise<void> {
    this.closed = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }
}
