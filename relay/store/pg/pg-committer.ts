/**
 * Group commit on PostgreSQL, per merchant. Deliveries verified in one event-loop turn are queued by
 * merchant; each merchant's queue is committed as one call of relay_commit (one transaction, one
 * round trip, synchronous_commit on) and answered only once COMMIT has returned. A merchant has at
 * most one commit in flight (its commits would queue on its counter row anyway); deliveries that
 * arrive meanwhile form its next group, so the groups grow with the load. Different merchants commit
 * in parallel on their own pool connections, so one merchant's burst never holds another's commits
 * back.
 */
import type pg from 'pg';
import type { Environment } from '../../../shared/domain.js';
import {
  acceptedOutcome,
  CommitError,
  differingFields,
  PRUNED_CONFLICT_FIELDS,
  repeatOutcome,
  summaryOf,
  type ApplyOutcome,
  type CommitReport,
  type CommitWaiter,
  type TenantDelivery,
} from '../index.js';
import type { LogFn } from '../../ops/index.js';

type Queue = { deliveries: TenantDelivery[]; waiters: CommitWaiter[]; inFlight: boolean };

type CommitRow = {
  o_kind: string;
  o_seq: string;
  o_environment: string | null;
  o_json: string | null;
  o_previous_timestamp: string | null;
};

/** Data errors (SQLSTATE classes 22 and 23) belong to a delivery; anything else means the database cannot commit now. */
export function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

const COMMIT_SQL = 'SELECT * FROM relay_commit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)';

function outcomeOf(row: CommitRow, d: TenantDelivery): ApplyOutcome {
  const seq = Number(row.o_seq);
  if (row.o_kind === 'accepted') return acceptedOutcome(seq, d);
  if (row.o_kind === 'duplicate') return repeatOutcome(seq, d.environment, Number(row.o_previous_timestamp), d);
  // No stored JSON: the event was pruned, only the hash of its final state is left.
  if (row.o_json === null)
    return { kind: 'conflict', seq, storedEnvironment: row.o_environment as Environment, fields: [...PRUNED_CONFLICT_FIELDS] };
  return {
    kind: 'conflict',
    seq,
    storedEnvironment: row.o_environment as Environment,
    fields: differingFields(
      JSON.parse(row.o_json as string) as Record<string, unknown>,
      JSON.parse(d.transactionJson) as Record<string, unknown>,
    ),
  };
}

export class PgCommitter {
  private readonly queues = new Map<string, Queue>();
  private scheduled = false;
  private closed = false;
  private inFlight = 0;
  private idle: Array<() => void> = [];
  private readonly flushSoon = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: {
      maxBatch: number;
      /** False while the database is known to be unreachable: deliveries are refused at once (503). */
      available: () => boolean;
      /** The database failed under a commit: the store starts probing it again. */
      unavailable: (err: Error) => void;
      committed: (report: CommitReport) => void;
      log: LogFn;
    },
  ) {}

  enqueue(delivery: TenantDelivery, waiter: CommitWaiter): void {
    if (this.closed) return waiter.settle(new CommitError('relay is shutting down', true), null, delivery);
    if (!this.options.available()) return waiter.settle(new CommitError('the database is unreachable', true), null, delivery);
    let queue = this.queues.get(delivery.merchantId);
    if (!queue) {
      queue = { deliveries: [], waiters: [], inFlight: false };
      this.queues.set(delivery.merchantId, queue);
    }
    queue.deliveries.push(delivery);
    queue.waiters.push(waiter);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon);
    }
  }

  /** Starts one commit for each merchant with queued deliveries and none in flight. */
  flush(): void {
    for (const [merchantId, queue] of this.queues) {
      if (queue.inFlight) continue;
      if (queue.deliveries.length === 0) {
        this.queues.delete(merchantId);
        continue;
      }
      void this.commitGroup(merchantId, queue);
    }
  }

  private async commitGroup(merchantId: string, queue: Queue): Promise<void> {
    const max = this.options.maxBatch;
    const deliveries = queue.deliveries.splice(0, max);
    const waiters = queue.waiters.splice(0, max);
    queue.inFlight = true;
    this.inFlight++;
    let results: Array<ApplyOutcome | Error>;
    try {
      results = await this.commit(merchantId, deliveries);
    } finally {
      queue.inFlight = false;
      this.inFlight--;
    }
    this.settle(deliveries, waiters, results);
    if (queue.deliveries.length > 0) this.flush();
    else if (this.inFlight === 0) for (const w of this.idle.splice(0)) w();
  }

  private async commit(merchantId: string, deliveries: TenantDelivery[]): Promise<Array<ApplyOutcome | Error>> {
    try {
      return await this.run(merchantId, deliveries);
    } catch (err) {
      const error = err as Error;
      if (!isDataError(err) || deliveries.length === 1) {
        if (!isDataError(err)) {
          this.options.unavailable(error);
          return deliveries.map(() => new CommitError(error.message, true));
        }
        return deliveries.map(() => error);
      }
      // A delivery the database refuses must not sink the rest of its group: one by one.
      const results: Array<ApplyOutcome | Error> = [];
      for (const d of deliveries) {
        try {
          results.push(...(await this.run(merchantId, [d])));
        } catch (e) {
          results.push(isDataError(e) ? (e as Error) : new CommitError((e as Error).message, true));
        }
      }
      return results;
    }
  }

  private async run(merchantId: string, deliveries: TenantDelivery[]): Promise<ApplyOutcome[]> {
    // The owner's summary row of each delivery, as arrays: relay_commit sums those it accepts (migrations/0009-summary-in-commit.ts).
    // A delivery whose JSON does not parse has no row (hour NULL: relay_commit skips it).
    const sums = deliveries.map(summaryOf);
    const { rows } = await this.pool.query<CommitRow>({
      name: 'relay_commit',
      text: COMMIT_SQL,
      values: [
        merchantId,
        deliveries.map((d) => d.environment),
        deliveries.map((d) => d.reference),
        deliveries.map((d) => d.clientReference),
        deliveries.map((d) => d.keyId),
        deliveries.map((d) => d.receivedAt),
        deliveries.map((d) => d.webhookCreatedAt),
        deliveries.map((d) => d.transactionJson),
        deliveries.map((d) => d.timestamp),
        sums.map((s) => s?.hour ?? null),
        sums.map((s) => s?.tillId ?? ''),
        sums.map((s) => s?.tillName ?? ''),
        sums.map((s) => s?.cashierId ?? ''),
        sums.map((s) => s?.cashierName ?? ''),
        sums.map((s) => s?.network ?? ''),
        sums.map((s) => s?.succeeded ?? 0),
        sums.map((s) => s?.failed ?? 0),
        sums.map((s) => s?.gross ?? 0),
        sums.map((s) => s?.fees ?? 0),
        sums.map((s) => s?.net ?? 0),
      ],
    });
    if (rows.length !== deliveries.length) throw new CommitError(`relay_commit answered ${rows.length} rows for ${deliveries.length}`);
    return rows.map((row, i) => outcomeOf(row, deliveries[i] as TenantDelivery));
  }

  private settle(deliveries: TenantDelivery[], waiters: CommitWaiter[], results: Array<ApplyOutcome | Error>): void {
    const report: CommitReport = [];
    results.forEach((r, i) => {
      if (!(r instanceof Error)) report.push({ delivery: deliveries[i] as TenantDelivery, outcome: r });
    });
    try {
      if (report.length > 0) this.options.committed(report);
    } catch (err) {
      // Durable whatever the listener did: still answer every delivery.
      this.options.log({ level: 'error', msg: 'commit_listener_failed', error: (err as Error).message });
    }
    results.forEach((r, i) => {
      const d = deliveries[i] as TenantDelivery;
      try {
        if (r instanceof Error) (waiters[i] as CommitWaiter).settle(r instanceof CommitError ? r : new CommitError(r.message), null, d);
        else (waiters[i] as CommitWaiter).settle(null, r, d);
      } catch (err) {
        this.options.log({ level: 'error', msg: 'commit_waiter_failed', error: (err as Error).message });
      }
    });
  }

  /** Stops taking deliveries, commits the queued ones and waits for every commit in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }
}
