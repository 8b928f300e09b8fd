/** Each merchant's share of an instance's deliveries on a relay of many merchants: a burst, then a rate. */
import { describe, expect, it } from 'vitest';
import { parseRelayConfig, RelayMetrics, type RelayConfigInput } from '../../../../../relay/ops/index.js';
import { DeliveryShare } from '../../../../../relay/http/webhooks/delivery-share.js';

function share(settings: Partial<RelayConfigInput>) {
  const config = parseRelayConfig(settings, 'test', {}, 'postgres');
  let now = 1_000_000;
  const metrics = new RelayMetrics();
  return {
    share: new DeliveryShare(
      () => config,
      metrics,
      () => now,
    ),
    metrics,
    advance: (ms: number) => (now += ms),
  };
}

/** Spends what a merchant's verified deliveries would, one by one, until refused; how many passed. */
function deliverUntilRefused(s: DeliveryShare, merchant: string, most: number): number {
  for (let n = 0; n < most; n++) {
    if (s.check(merchant)) return n;
    s.spend(merchant);
  }
  return most;
}

describe('DeliveryShare', () => {
  it('lets a merchant its burst, then refuses it 429 naming the limit, with the wait until its next; others untouched', () => {
    const { share: s, metrics } = share({ deliveriesPerSecondPerMerchant: 2, deliveryBurstPerMerchant: 5 });
    expect(deliverUntilRefused(s, 'MCH_noisy', 100)).toBe(5);
    const refused = s.check('MCH_noisy');
    expect(refused).toMatchObject({ status: 429, reason: 'deliveries_merchant_rate', retryAfterSeconds: 1 });
    expect(refused?.message).toMatch(/deliveriesPerSecondPerMerchant 2 after deliveryBurstPerMerchant 5/);
    expect(metrics.shareRefusals.get({ limit: 'deliveriesPerSecondPerMerchant' })).toBe(2);
    expect(s.check('MCH_calm')).toBeNull();
  });

  it('refills at its rate: one more each 1/rate seconds, and Retry-After is a whole number of seconds, at least 1', () => {
    const { share: s, advance } = share({ deliveriesPerSecondPerMerchant: 0.25, deliveryBurstPerMerchant: 1 });
    expect(deliverUntilRefused(s, 'MCH_a', 10)).toBe(1);
    expect(s.check('MCH_a')?.retryAfterSeconds).toBe(4);
    advance(3_000);
    expect(s.check('MCH_a')?.retryAfterSeconds).toBe(1);
    advance(1_000);
    expect(deliverUntilRefused(s, 'MCH_a', 10)).toBe(1);
  });

  it('lets a proxy give the refusal again for its Retry-After, 5 s at most (a raised share applies soon after)', () => {
    const { share: s, advance } = share({ deliveriesPerSecondPerMerchant: 0.25, deliveryBurstPerMerchant: 1 });
    s.spend('MCH_a');
    expect(s.check('MCH_a')).toMatchObject({ retryAfterSeconds: 4, sameAnswerForSeconds: 4 });
    advance(3_500);
    expect(s.check('MCH_a')).toMatchObject({ retryAfterSeconds: 1, sameAnswerForSeconds: 1 });
    const slow = share({ deliveriesPerSecondPerMerchant: 0.01, deliveryBurstPerMerchant: 1 }).share;
    slow.spend('MCH_b');
    expect(slow.check('MCH_b')).toMatchObject({ retryAfterSeconds: 100, sameAnswerForSeconds: 5 });
  });

  it('defaults to 10 a second after a burst of 20, per instance', () => {
    const { share: s } = share({});
    expect(deliverUntilRefused(s, 'MCH_a', 100)).toBe(20);
  });

  it('is spent only by deliveries that were verified: checks alone (a stranger naming the key) use nothing up', () => {
    const { share: s } = share({ deliveriesPerSecondPerMerchant: 1, deliveryBurstPerMerchant: 3 });
    for (let i = 0; i < 50; i++) expect(s.check('MCH_a')).toBeNull();
    expect(deliverUntilRefused(s, 'MCH_a', 10)).toBe(3);
  });

  it('reads its limits at each delivery: a reload that raises the rate shortens the wait at once', () => {
    let config = parseRelayConfig({ deliveriesPerSecondPerMerchant: 0.1, deliveryBurstPerMerchant: 1 }, 'test', {}, 'postgres');
    let now = 1_000_000;
    const s = new DeliveryShare(
      () => config,
      new RelayMetrics(),
      () => now,
    );
    s.spend('MCH_a');
    expect(s.check('MCH_a')?.retryAfterSeconds).toBe(10);
    config = parseRelayConfig({ deliveriesPerSecondPerMerchant: 100, deliveryBurstPerMerchant: 1 }, 'test', {}, 'postgres');
    now += 10;
    expect(s.check('MCH_a')).toBeNull();
  });
});
