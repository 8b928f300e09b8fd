/**
 * Retention (`relay --retention-days N`, default 90 as Svix keeps messages; 0 keeps everything): once
 * at start and then every `intervalMs`, events received more than N days ago are pruned in small
 * batches (store.prune), with a pause between batches so deliveries keep committing in between. A
 * pruned event leaves its reference behind (a repeat is still a repeat), and a till whose cursor is
 * older than the oldest kept event is told so (GET /v1/transactions answers 410 CURSOR_PRUNED).
 * Each pass logs, per merchant, the stretch of its log pruned (events_pruned), and each event set aside
 * because it could not be pruned (prune_set_aside, a warning naming the merchant and the sequence).
 */
import type { LogFn } from '../ops/index.js';
import type { PrunedRange, RelayStore } from './relay-store.js';

export const DEFAULT_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

export type RetentionOptions = {
  /** Days an event is kept after it is received; 0 keeps every event for ever. */
  days: number;
  /** Events per batch (one short transaction each). */
  batch?: number;
  /** Pause between two batches, so commits run in between. */
  pauseMs?: number;
  /** How often a pass runs. */
  intervalMs?: number;
  now: () => number;
  log: LogFn;
};

/** Checks a --retention-days / RELAY_RETENTION_DAYS value; the error names the flag. */
export function parseRetentionDays(text: string, source = '--retention-days'): number {
  if (!/^[0-9]{1,5}$/.test(text)) throw new Error(`${source}: must be a whole number of days (0 keeps every event), got "${text}"`);
  return Number(text);
}

export class Retention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly store: Pick<RelayStore, 'prune'>,
    private readonly options: RetentionOptions,
  ) {}

  /** Schedules the passes (the first one soon after start); nothing when retention is off. */
  start(): void {
    if (this.options.days === 0) return;
    const every = this.options.intervalMs ?? 3_600_000;
    const tick = () => {
      void this.runPass().catch(() => undefined);
      this.timer = setTimeout(tick, every);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, Math.min(every, 5_000));
    this.timer.unref();
  }

  /** One full pass now (or the one already running); resolves with the number of events pruned. */
  runPass(): Promise<number> {
    if (this.options.days === 0) return Promise.resolve(0);
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    const { days, batch = 500, pauseMs = 20, now, log } = this.options;
    const before = new Date(now() - days * DAY_MS).toISOString();
    const merchants = new Map<string, Omit<PrunedRange, 'setAside' | 'error'> & { setAside: number }>();
    const failed = new Set<string>();
    let total = 0;
    try {
      for (;;) {
        if (this.stopped) break;
        const ranges = await this.store.prune(before, batch);
        let n = 0;
        for (const range of ranges) {
          if (range.error !== undefined) {
            // Once a pass per merchant: the others' batches go on, and it is tried again each batch.
            if (!failed.has(range.merchantId))
              log({ level: 'warn', msg: 'prune_failed', merchantId: range.merchantId, error: range.error });
            failed.add(range.merchantId);
            continue;
          }
          n += range.count;
          for (const { seq, reason } of range.setAside) {
            log({ level: 'warn', msg: 'prune_set_aside', merchantId: range.merchantId, seq, reason });
          }
          const seen = merchants.get(range.merchantId);
          if (seen) {
            seen.throughSeq = range.throughSeq;
            seen.count += range.count;
            seen.setAside += range.setAside.length;
          } else {
            const { merchantId, fromSeq, throughSeq, count } = range;
            merchants.set(merchantId, { merchantId, fromSeq, throughSeq, count, setAside: range.setAside.length });
          }
        }
        total += n;
        if (n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    } catch (err) {
      log({ level: 'warn', msg: 'prune_failed', error: (err as Error).message, pruned: total });
    }
    for (const m of merchants.values()) {
      log({ level: 'info', msg: 'events_pruned', ...m, receivedBefore: before, retentionDays: days });
    }
    return total;
  }

  /** Stops scheduling and waits for a pass in progress to end its batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }
}
