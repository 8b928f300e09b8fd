/**
 * The two counters every share is kept with (relay/ops/shares.ts): how much each key (a till token, a
 * merchant, a link) holds right now, and a bucket per key for rates. Keys are ones the relay already knows
 * (authenticated tokens, merchants, links), so the maps stay as small as the tenancy; the one counter keyed by
 * clients' addresses (the owner page's wrong credentials) keeps a bucket only for a miss, and forgets full ones.
 */

/** What each key holds at once (reads in progress, streams, bytes). */
export class Holdings {
  private readonly held = new Map<string, number>();

  of(key: string): number {
    return this.held.get(key) ?? 0;
  }

  add(key: string, by: number): number {
    const n = this.of(key) + by;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    return Math.max(0, n);
  }
}

type Bucket = { tokens: number; at: number };

/**
 * A bucket per key of `burst` requests refilled at `perSecond`. `waitFor` and `take` are apart so that a
 * request checked against two buckets (its token's and its merchant's) takes from neither when either is empty.
 * Asking keeps nothing (a key that never took has a full bucket), so keys that only ask, such as the
 * addresses of clients without credentials, cost no memory.
 */
export class RateBuckets {
  private readonly buckets = new Map<string, Bucket>();
  /** Past this many buckets the full ones are forgotten; it grows with what stays, so forgetting costs O(1) a take. */
  private forgetAt = 10_000;

  constructor(private readonly now: () => number) {}

  /** The key's bucket as of now; a key without one gets a full one, kept only once it takes. */
  private refill(key: string, perSecond: number, burst: number): Bucket {
    const now = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + (Math.max(0, now - b.at) / 1000) * perSecond);
    b.at = now;
    return b;
  }

  /** Seconds until `key` may make one more request (or spend `n`); 0 when it may now. */
  waitFor(key: string, perSecond: number, burst: number, n = 1): number {
    const b = this.refill(key, perSecond, burst);
    return b.tokens >= n ? 0 : (n - b.tokens) / perSecond;
  }

  /** What `key` may spend now (negative while it owes). */
  available(key: string, perSecond: number, burst: number): number {
    return this.refill(key, perSecond, burst).tokens;
  }

  /** Spends `n` (a negative `n` gives back what was taken and not used). */
  take(key: string, perSecond: number, burst: number, n = 1): void {
    const b = this.refill(key, perSecond, burst);
    b.tokens = Math.min(burst, b.tokens - n);
    this.buckets.set(key, b);
    if (this.buckets.size > this.forgetAt) {
      this.forgetFull(perSecond, burst);
      this.forgetAt = Math.max(10_000, this.buckets.size * 2);
    }
  }

  /** Full buckets say nothing a new one would not. */
  private forgetFull(perSecond: number, burst: number): void {
    for (const key of [...this.buckets.keys()]) if (this.refill(key, perSecond, burst).tokens >= burst) this.buckets.delete(key);
  }
}
