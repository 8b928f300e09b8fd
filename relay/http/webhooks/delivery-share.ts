/**
 * Each merchant's share of an instance's deliveries, on a relay of many merchants: a bucket of
 * deliveryBurstPerMerchant refilled at deliveriesPerSecondPerMerchant. A delivery costs a durable commit, which
 * every merchant's deliveries wait for, so one merchant's flood (its own signed deliveries: a tenant knows its
 * webhook secret) must not fill the instance and its database.
 *
 * Only verified deliveries spend the share, so a stranger naming another merchant's key id cannot use that
 * merchant's share up. Once a merchant's own deliveries have spent it, the rest are refused before they are
 * verified, from their headers: the cheapest answer a flood can get. The refusal is 429 (the proxies never count
 * it against the instance) and the service retries it on its schedule, so nothing is lost. Behind the documented
 * nginx the flood stops there: the refusal says how long the proxy may give it again itself (X-Accel-Expires).
 */
import { RateBuckets } from '../fair-share.js';
import type { RelayConfig, RelayMetrics } from '../../ops/index.js';
import type { Rejection } from './verify.js';

/** Longest a caching proxy may repeat a refusal for a spent share. */
const MAX_REPEATED_SECONDS = 5;

export class DeliveryShare {
  private readonly buckets: RateBuckets;

  constructor(
    private readonly getConfig: () => RelayConfig,
    private readonly metrics: RelayMetrics,
    now: () => number,
  ) {
    this.buckets = new RateBuckets(now);
  }

  /** The refusal of `merchant`'s next delivery when its share is spent; null when it may be verified and committed. */
  check(merchant: string): Rejection | null {
    const { deliveriesPerSecondPerMerchant: perSecond, deliveryBurstPerMerchant: burst } = this.getConfig();
    const wait = this.buckets.waitFor(merchant, perSecond, burst);
    if (wait <= 0) return null;
    this.metrics.shareRefusals.inc({ limit: 'deliveriesPerSecondPerMerchant' });
    const message = `Too many deliveries for this merchant (deliveriesPerSecondPerMerchant ${perSecond} after deliveryBurstPerMerchant ${burst}); retry later`;
    const retryAfterSeconds = Math.max(1, Math.ceil(wait));
    // Every delivery naming this merchant's key is refused until its bucket refills, so a proxy may repeat the
    // answer meanwhile (for a few seconds at most: a share raised by a reload applies soon after).
    const sameAnswerForSeconds = Math.min(retryAfterSeconds, MAX_REPEATED_SECONDS);
    return { status: 429, reason: 'deliveries_merchant_rate', message, retryAfterSeconds, sameAnswerForSeconds };
  }

  /** A verified delivery of `merchant`'s, on its way to the commit. */
  spend(merchant: string): void {
    const { deliveriesPerSecondPerMerchant: perSecond, deliveryBurstPerMerchant: burst } = this.getConfig();
    this.buckets.take(merchant, perSecond, burst);
  }
}
