/**
 * Each merchant's budget of events read back from the log a second: by its tills' pages and by its streams
 * reading from the store (opening behind, or catching up with another instance). What a read costs the
 * instance, its database and the proxy is its events (read, written out, encrypted), not the request that
 * asked for them, so the share is counted in events. A page gets at most what is left (a shorter page,
 * hasMore: true; 429 once nothing is left); a stream reading back waits until the budget has refilled.
 * Events pushed live from this instance's own commits are not read back and cost nothing here.
 */
import type { RelayConfig, RelayMetrics } from '../../ops/index.js';
import { RateBuckets } from '../fair-share.js';

export class ReadBudget {
  private readonly buckets: RateBuckets;

  constructor(
    private readonly getConfig: () => RelayConfig,
    private readonly metrics: RelayMetrics,
    now: () => number,
    /** A multi-merchant relay: the events read are shown per merchant. */
    private readonly perMerchantMetrics = false,
  ) {
    this.buckets = new RateBuckets(now);
  }

  private rate(): [number, number] {
    const c = this.getConfig();
    return [c.readEventsPerSecondPerMerchant, c.readEventBurstPerMerchant];
  }

  /** Seconds until the merchant may be sent `n` more events (at most its burst); 0 when it may now. */
  waitSeconds(merchantId: string, n = 1): number {
    const [perSecond, burst] = this.rate();
    return this.buckets.waitFor(merchantId, perSecond, burst, Math.min(n, burst));
  }

  /**
   * Takes up to `want` events for a read about to start and says how many: what is left, but at least one,
   * so a read let in always holds an event (a merchant owes at most one per read in progress).
   */
  reserve(merchantId: string, want: number): number {
    const [perSecond, burst] = this.rate();
    const granted = Math.max(1, Math.min(want, Math.floor(this.buckets.available(merchantId, perSecond, burst))));
    this.buckets.take(merchantId, perSecond, burst, granted);
    return granted;
  }

  /** The read is done: `used` of the `granted` events were sent; the rest go back. */
  settle(merchantId: string, granted: number, used: number): void {
    const [perSecond, burst] = this.rate();
    if (used < granted) this.buckets.take(merchantId, perSecond, burst, used - granted);
    this.metrics.readEvents.inc(undefined, used);
    if (this.perMerchantMetrics) this.metrics.merchantReadEvents.inc({ merchant: merchantId }, used);
  }
}
