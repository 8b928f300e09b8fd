/**
 * Usage per merchant per day (deliveries, repeats, rejections by reason, tills connected, last
 * delivery), when each key and till token was last used, and how far each till has read (store/till-reads.ts). Counted in memory on the hot paths (a map
 * update, no I/O) and written every few seconds by each instance, adding its counts to the day's row;
 * a failed write keeps the counts for the next one. Days are UTC.
 */
import type pg from 'pg';
import type { LogFn } from '../../ops/index.js';
import { ReadMarks, type CommitReport, type TillIdentity, type TillRead } from '../index.js';

type Day = { deliveries: number; duplicates: number; rejections: Record<string, number>; lastDelivery: number };

type Pending = {
  days: Map<string, Day>;
  tills: Set<string>;
  keys: Map<string, number>;
  tokens: Map<string, number>;
};

const fresh = (): Pending => ({ days: new Map(), tills: new Set(), keys: new Map(), tokens: new Map() });
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const SEP = '\u0000';

export class UsageRecorder {
  private pending = fresh();
  private readonly reads: ReadMarks;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: LogFn,
    private readonly now: () => number = Date.now,
  ) {
    this.reads = new ReadMarks(now);
  }

  start(periodMs: number): void {
    this.timer = setInterval(() => void this.flush(), periodMs);
    this.timer.unref();
  }

  private day(merchantId: string, at: number): Day {
    const k = `${merchantId}${SEP}${dayOf(at)}`;
    let d = this.pending.days.get(k);
    if (!d) this.pending.days.set(k, (d = { deliveries: 0, duplicates: 0, rejections: {}, lastDelivery: 0 }));
    return d;
  }

  committed(report: CommitReport): void {
    const at = this.now();
    for (const { delivery, outcome } of report) {
      this.pending.keys.set(delivery.keyId, at);
      const d = this.day(delivery.merchantId, at);
      if (outcome.kind === 'accepted') {
        d.deliveries++;
        d.lastDelivery = at;
      } else if (outcome.kind === 'duplicate') d.duplicates++;
    }
  }

  rejected(merchantId: string, reason: string): void {
    const d = this.day(merchantId, this.now());
    d.rejections[reason] = (d.rejections[reason] ?? 0) + 1;
  }

  tillSeen(merchantId: string, label: string, tokenHash: string): void {
    const at = this.now();
    this.pending.tokens.set(tokenHash, at);
    this.pending.tills.add(`${merchantId}${SEP}${dayOf(at)}${SEP}${label}`);
  }

  tillRead(till: TillIdentity, seq: number): void {
    this.reads.note(till, seq);
  }

  /** Writes what was counted since the last write (one at a time). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    const reads = this.reads.take();
    if (batch.days.size || batch.tills.size || batch.keys.size || batch.tokens.size) {
      this.pending = fresh();
      try {
        await writeUsage(this.pool, batch);
      } catch (err) {
        this.log({ level: 'warn', msg: 'usage_write_failed', error: (err as Error).message });
        this.mergeBack(batch);
      }
    }
    if (!reads.length) return;
    try {
      await writeReads(this.pool, reads);
    } catch (err) {
      this.log({ level: 'warn', msg: 'till_reads_write_failed', error: (err as Error).message });
      this.reads.putBack(reads);
    }
  }

  private mergeBack(batch: Pending): void {
    for (const [k, d] of batch.days) {
      const cur = this.pending.days.get(k);
      if (!cur) {
        this.pending.days.set(k, d);
        continue;
      }
      cur.deliveries += d.deliveries;
      cur.duplicates += d.duplicates;
      cur.lastDelivery = Math.max(cur.lastDelivery, d.lastDelivery);
      for (const [r, n] of Object.entries(d.rejections)) cur.rejections[r] = (cur.rejections[r] ?? 0) + n;
    }
    for (const t of batch.tills) this.pending.tills.add(t);
    for (const [k, at] of batch.keys) if (!this.pending.keys.has(k)) this.pending.keys.set(k, at);
    for (const [k, at] of batch.tokens) if (!this.pending.tokens.has(k)) this.pending.tokens.set(k, at);
  }
}

async function writeUsage(pool: pg.Pool, batch: Pending): Promise<void> {
  const days = [...batch.days].map(([k, d]) => ({ key: k.split(SEP), d }));
  const tills = [...batch.tills].map((t) => t.split(SEP));
  const toDate = (ms: number) => (ms ? new Date(ms).toISOString() : null);
  // Rows of merchants removed meanwhile are left out (the EXISTS), so one removal never fails the write.
  await pool.query(
    `INSERT INTO merchant_usage_daily AS d (merchant_id, day, deliveries, duplicates, rejections, last_delivery_at)
     SELECT u.m, u.day, u.n, u.dup, u.rej, u.last FROM unnest($1::text[], $2::date[], $3::bigint[], $4::bigint[], $5::jsonb[], $6::timestamptz[])
       AS u(m, day, n, dup, rej, last) WHERE EXISTS (SELECT 1 FROM merchants WHERE id = u.m)
     ON CONFLICT (merchant_id, day) DO UPDATE SET deliveries = d.deliveries + excluded.deliveries,
       duplicates = d.duplicates + excluded.duplicates, rejections = relay_counts_add(d.rejections, excluded.rejections),
       last_delivery_at = greatest(d.last_delivery_at, excluded.last_delivery_at)`,
    [
      days.map((x) => x.key[0]),
      days.map((x) => x.key[1]),
      days.map((x) => x.d.deliveries),
      days.map((x) => x.d.duplicates),
      days.map((x) => JSON.stringify(x.d.rejections)),
      days.map((x) => toDate(x.d.lastDelivery)),
    ],
  );
  await pool.query(
    `INSERT INTO merchant_usage_tills (merchant_id, day, label)
     SELECT u.m, u.day, u.label FROM unnest($1::text[], $2::date[], $3::text[]) AS u(m, day, label)
     WHERE EXISTS (SELECT 1 FROM merchants WHERE id = u.m) ON CONFLICT DO NOTHING`,
    [tills.map((t) => t[0]), tills.map((t) => t[1]), tills.map((t) => t[2])],
  );
  // Only last_used_at changes: the auth triggers fire on the other columns, so no instance reloads for this.
  await pool.query(
    `UPDATE service_keys k SET last_used_at = greatest(k.last_used_at, u.at)
     FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE k.public_id = u.id`,
    [[...batch.keys.keys()], [...batch.keys.values()].map(toDate)],
  );
  await pool.query(
    `UPDATE till_tokens t SET last_used_at = greatest(t.last_used_at, u.at)
     FROM unnest($1::text[], $2::timestamptz[]) AS u(hash, at) WHERE t.token_hash = u.hash`,
    [[...batch.tokens.keys()], [...batch.tokens.values()].map(toDate)],
  );
}

/** Each till's mark, the higher one kept; marks of merchants removed meanwhile are left out. */
async function writeReads(pool: pg.Pool, reads: readonly TillRead[]): Promise<void> {
  if (!reads.length) return;
  await pool.query(
    `INSERT INTO till_reads AS r (merchant_id, token_hash, label, read_seq, read_at)
     SELECT u.m, u.h, u.l, u.s, u.at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[]) AS u(m, h, l, s, at)
     WHERE EXISTS (SELECT 1 FROM merchants WHERE id = u.m)
     ON CONFLICT (merchant_id, token_hash) DO UPDATE SET label = excluded.label,
       read_at = CASE WHEN excluded.read_seq > r.read_seq THEN excluded.read_at ELSE r.read_at END,
       read_seq = greatest(r.read_seq, excluded.read_seq)`,
    [
      reads.map((r) => r.merchantId),
      reads.map((r) => r.tokenHash),
      reads.map((r) => r.label),
      reads.map((r) => r.readSeq),
      reads.map((r) => r.readAt),
    ],
  );
}
