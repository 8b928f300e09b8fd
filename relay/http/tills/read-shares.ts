/**
 * Each till token's and each merchant's share of the log's reads (GET /v1/transactions and
 * /v1/transactions/<reference>): how many may be in progress at once (on PostgreSQL each holds one of the
 * instance's database connections, which every merchant's deliveries need) and how many a second, after a
 * burst a till catching up pages through (on SQLite each read runs on the instance's only thread), and how
 * many events its reads may be sent a second (read-budget.ts, shared with the streams reading back). A read
 * past any of them is answered 429 with Retry-After before it touches the store.
 */
import type { RelayConfig, RelayMetrics } from '../../ops/index.js';
import type { TillIdentity } from '../../store/index.js';
import { Holdings, RateBuckets } from '../fair-share.js';
import { ReadBudget } from './read-budget.js';

export type ReadRefusal = 'reads_token_busy' | 'reads_merchant_busy' | 'reads_token_rate' | 'reads_merchant_rate' | 'reads_merchant_events';

export type ReadAdmission =
  { ok: true; done: () => void } | { ok: false; reason: ReadRefusal; limit: string; message: string; retryAfterSeconds: number };

export class ReadShares {
  private readonly byToken = new Holdings();
  private readonly byMerchant = new Holdings();
  private readonly tokenRates: RateBuckets;
  private readonly merchantRates: RateBuckets;
  /** Each merchant's events read back a second; pages spend it, as its streams reading back do. */
  readonly budget: ReadBudget;

  constructor(
    private readonly getConfig: () => RelayConfig,
    private readonly metrics: RelayMetrics,
    now: () => number,
    /** A multi-merchant relay: the reads in progress are shown per merchant. */
    private readonly perMerchantMetrics = false,
    budget?: ReadBudget,
  ) {
    this.tokenRates = new RateBuckets(now);
    this.merchantRates = new RateBuckets(now);
    this.budget = budget ?? new ReadBudget(getConfig, metrics, now, perMerchantMetrics);
  }

  /** Lets one read of `till` in, or says which share it is past; `done` once it is answered (or its client gone). */
  admit(till: TillIdentity): ReadAdmission {
    const c = this.getConfig();
    const { tokenHash: token, merchantId: merchant } = till;
    if (this.byToken.of(token) >= c.maxReadsInFlightPerToken) {
      const message = `This till token already has ${c.maxReadsInFlightPerToken} reads in progress (maxReadsInFlightPerToken ${c.maxReadsInFlightPerToken}); wait for one to finish`;
      return { ok: false, reason: 'reads_token_busy', limit: 'maxReadsInFlightPerToken', message, retryAfterSeconds: 1 };
    }
    if (this.byMerchant.of(merchant) >= c.maxReadsInFlightPerMerchant) {
      const message = `This merchant's tills already have ${c.maxReadsInFlightPerMerchant} reads in progress (maxReadsInFlightPerMerchant ${c.maxReadsInFlightPerMerchant})`;
      return { ok: false, reason: 'reads_merchant_busy', limit: 'maxReadsInFlightPerMerchant', message, retryAfterSeconds: 1 };
    }
    const tokenWait = this.tokenRates.waitFor(token, c.readsPerSecondPerToken, c.readBurstPerToken);
    if (tokenWait > 0) {
      const message = `Too many reads with this till token (readsPerSecondPerToken ${c.readsPerSecondPerToken} after readBurstPerToken ${c.readBurstPerToken})`;
      return { ok: false, reason: 'reads_token_rate', limit: 'readsPerSecondPerToken', message, retryAfterSeconds: tokenWait };
    }
    const merchantWait = this.merchantRates.waitFor(merchant, c.readsPerSecondPerMerchant, c.readBurstPerMerchant);
    if (merchantWait > 0) {
      const message = `Too many reads by this merchant's tills (readsPerSecondPerMerchant ${c.readsPerSecondPerMerchant} after readBurstPerMerchant ${c.readBurstPerMerchant})`;
      return { ok: false, reason: 'reads_merchant_rate', limit: 'readsPerSecondPerMerchant', message, retryAfterSeconds: merchantWait };
    }
    const eventsWait = this.budget.waitSeconds(merchant);
    if (eventsWait > 0) {
      const message = `This merchant's tills were sent too many events (readEventsPerSecondPerMerchant ${c.readEventsPerSecondPerMerchant} after readEventBurstPerMerchant ${c.readEventBurstPerMerchant})`;
      return {
        ok: false,
        reason: 'reads_merchant_events',
        limit: 'readEventsPerSecondPerMerchant',
        message,
        retryAfterSeconds: eventsWait,
      };
    }
    this.tokenRates.take(token, c.readsPerSecondPerToken, c.readBurstPerToken);
    this.merchantRates.take(merchant, c.readsPerSecondPerMerchant, c.readBurstPerMerchant);
    this.hold(token, merchant, 1);
    let finished = false;
    return {
      ok: true,
      done: () => {
        if (finished) return;
        finished = true;
        this.hold(token, merchant, -1);
      },
    };
  }

  private hold(token: string, merchant: string, by: number): void {
    this.byToken.add(token, by);
    const n = this.byMerchant.add(merchant, by);
    if (this.perMerchantMetrics) this.metrics.merchantReadsInFlight.set(n, { merchant });
  }
}
