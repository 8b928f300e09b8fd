/**
 * The PIN lock-out, kept in SQLite so a restart does not reset it. Attempts are checked one at a time
 * (a queue), and each is counted on disk BEFORE the slow hash runs, so parallel guesses cannot slip
 * past the limit: the sixth of 200 simultaneous guesses already finds the person locked.
 *
 * A subject is a person's id (their name was tapped, or their PIN matched) or TILL_SUBJECT for PINs
 * typed without a name that matched nobody.
 */
import type { Db } from '../storage/index.js';
import { CoreError } from '../errors.js';

export const MAX_ATTEMPTS = 5;
/** The first lock-out; each further one doubles, up to LOCKOUT_MAX_MS. */
export const LOCKOUT_MS = 60_000;
export const LOCKOUT_MAX_MS = 60 * 60_000;
export const TILL_SUBJECT = '*till';

type AttemptRow = { subject: string; failures: number; lockouts: number; locked_until: number };

export class PinGuard {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.stmts = {
      get: db.prepare('SELECT * FROM pin_attempts WHERE subject = ?'),
      count: db.prepare(
        `INSERT INTO pin_attempts (subject, failures) VALUES (?, 1)
         ON CONFLICT (subject) DO UPDATE SET failures = failures + 1`,
      ),
      put: db.prepare(
        'UPDATE pin_attempts SET failures = @failures, lockouts = @lockouts, locked_until = @locked_until WHERE subject = @subject',
      ),
    };
  }

  /** Milliseconds `subject` stays locked out (0: not locked). */
  lockedFor(subject: string): number {
    const row = this.stmts.get.get(subject) as AttemptRow | undefined;
    return Math.max(0, (row?.locked_until ?? 0) - this.now());
  }

  /**
   * Runs `verify` for one PIN try against `subject`, alone: refused without hashing while locked out; the
   * try is counted on disk before `verify` runs; a success (non-null) clears the count; the fifth failure
   * in a row starts a lock-out (`lockedOut` true), each longer than the last.
   */
  attempt<T>(subject: string, verify: () => Promise<T | null>): Promise<{ value: T | null; lockedOut: boolean }> {
    const run = async () => {
      this.refuseIfLocked(subject);
      this.stmts.count.run(subject);
      const value = await verify();
      if (value !== null) {
        this.stmts.put.run({ subject, failures: 0, lockouts: 0, locked_until: 0 });
        return { value, lockedOut: false };
      }
      return { value, lockedOut: this.lockIfDue(subject) };
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private refuseIfLocked(subject: string): void {
    const ms = this.lockedFor(subject);
    if (ms > 0) throw new CoreError('PIN_LOCKED', lockedMessage(ms));
  }

  private lockIfDue(subject: string): boolean {
    const row = this.stmts.get.get(subject) as AttemptRow;
    if (row.failures < MAX_ATTEMPTS) return false;
    const ms = Math.min(LOCKOUT_MS * 2 ** row.lockouts, LOCKOUT_MAX_MS);
    this.stmts.put.run({ subject, failures: 0, lockouts: row.lockouts + 1, locked_until: this.now() + ms });
    return true;
  }
}

export function lockedMessage(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `Too many wrong PINs. Try again in ${wait}.`;
}
