/** Each till token's and each merchant's share of the log's reads: in progress at once, and a second after a burst. */
import { describe, expect, it } from 'vitest';
import { parseRelayConfig, RelayMetrics, type RelayConfigInput } from '../../../../../relay/ops/index.js';
import { ReadShares } from '../../../../../relay/http/tills/index.js';
import type { TillIdentity } from '../../../../../relay/store/index.js';

const till = (tokenHash: string, merchantId = 'MCH_a'): TillIdentity => ({ tokenHash, merchantId, label: tokenHash });

function shares(settings: Partial<RelayConfigInput>) {
  const config = parseRelayConfig(settings, 'test', {}, 'postgres');
  let now = 1_000_000;
  const metrics = new RelayMetrics();
  const reads = new ReadShares(
    () => config,
    metrics,
    () => now,
    true,
  );
  return { reads, metrics, advance: (ms: number) => (now += ms) };
}

describe('ReadShares', () => {
  it('lets a token hold its share of reads in progress, then its merchant its own; others are not counted against them', () => {
    const { reads, metrics } = shares({ maxReadsInFlightPerToken: 2, maxReadsInFlightPerMerchant: 3 });
    const [a1, a2] = [reads.admit(till('t1')), reads.admit(till('t1'))];
    expect([a1.ok, a2.ok]).toEqual([true, true]);
    expect(reads.admit(till('t1'))).toMatchObject({ ok: false, reason: 'reads_token_busy', limit: 'maxReadsInFlightPerToken' });
    expect(reads.admit(till('t2')).ok).toBe(true);
    const merchantFull = reads.admit(till('t3'));
    expect(merchantFull).toMatchObject({ ok: false, reason: 'reads_merchant_busy', retryAfterSeconds: 1 });
    expect(merchantFull.ok ? '' : merchantFull.message).toMatch(/maxReadsInFlightPerMerchant 3/);
    expect(reads.admit(till('t9', 'MCH_b')).ok).toBe(true);
    expect(metrics.merchantReadsInFlight.get({ merchant: 'MCH_a' })).toBe(3);
    if (a1.ok) {
      a1.done();
      a1.done(); // a response's close after its finish counts once
    }
    expect(metrics.merchantReadsInFlight.get({ merchant: 'MCH_a' })).toBe(2);
    expect(reads.admit(till('t1')).ok).toBe(true);
  });

  it("spends a token's burst then refills it at its rate; a refused read takes nothing from the merchant's bucket", () => {
    const { reads, advance } = shares({
      readBurstPerToken: 3,
      readsPerSecondPerToken: 2,
      readBurstPerMerchant: 4,
      readsPerSecondPerMerchant: 1,
    });
    const take = (t: string) => {
      const r = reads.admit(till(t));
      if (r.ok) r.done();
      return r;
    };
    expect([take('t1'), take('t1'), take('t1')].every((r) => r.ok)).toBe(true);
    const refused = take('t1');
    expect(refused).toMatchObject({ ok: false, reason: 'reads_token_rate', limit: 'readsPerSecondPerToken' });
    expect(refused.ok ? 0 : refused.retryAfterSeconds).toBeCloseTo(0.5);
    // The merchant's bucket had 4: t1 took 3, so t2 gets the last one, then the merchant's rate holds both.
    expect(take('t2').ok).toBe(true);
    expect(take('t2')).toMatchObject({ ok: false, reason: 'reads_merchant_rate', retryAfterSeconds: 1 });
    advance(1_000);
    expect(take('t1').ok).toBe(true);
    expect(take('t2').ok).toBe(false);
  });
});
