/**
 * Repeated warnings (refused deliveries, bad till tokens, failed commits) as one line per reason per interval:
 * the first at once, then one line with how many followed. A flood of junk requests cannot flood
 * the log; the metrics keep the exact counts.
 */
import type { LogFn } from './logger.js';

type Level = 'warn' | 'error';
type Pending = { level: Level; msg: string; reason: string; fields: Record<string, unknown>; repeats: number };

export class WarningSummary {
  private readonly seen = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: LogFn,
    private readonly intervalMs: () => number,
  ) {}

  warn(msg: string, reason: string, fields: Record<string, unknown> = {}): void {
    this.report('warn', msg, reason, fields);
  }

  /** As warn(), at another level (a failed commit is an error, and as repetitive in an outage). */
  report(level: Level, msg: string, reason: string, fields: Record<string, unknown> = {}): void {
    const key = `${msg}\n${reason}`;
    const known = this.seen.get(key);
    if (known) {
      known.repeats++;
      return;
    }
    this.log({ level, msg, reason, count: 1, ...fields });
    this.seen.set(key, { level, msg, reason, fields, repeats: 0 });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs());
      this.timer.unref();
    }
  }

  /** One line per reason that repeated since its first line; then every reason starts afresh. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const seconds = this.intervalMs() / 1000;
    for (const { level, msg, reason, fields, repeats } of this.seen.values()) {
      if (repeats > 0) this.log({ level, msg, reason, count: repeats, ...fields, repeatedWithinSeconds: seconds });
    }
    this.seen.clear();
  }
}
