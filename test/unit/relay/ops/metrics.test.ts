import { describe, expect, it } from 'vitest';
import { loadRelayConfig, RelayMetrics, showLimits } from '../../../../relay/ops/index.js';

describe('relay metrics', () => {
  it('renders Prometheus text with labels (by merchant too), gauges and cumulative histograms', async () => {
    const m = new RelayMetrics();
    m.accepted.inc({ environment: 'live' });
    m.accepted.inc({ environment: 'live' });
    m.rejected.inc({ reason: 'signature_mismatch' });
    m.sseClients.set(3);
    m.pushLatency.observe(0.003);
    m.pushLatency.observe(0.2);
    m.merchantRejected.inc({ merchant: 'MCH_a', reason: 'invalid_body' });
    m.merchantCommitFailures.inc({ merchant: 'MCH_b' }, 3);
    m.merchantLastDelivery.set(1_800_000_000.5, { merchant: 'MCH_a' });
    m.merchantPushLatency.observe(0.02, { merchant: 'MCH_a' });
    m.crossInstancePushLatency.observe(0.03);
    const text = await m.render();
    for (const line of [
      '# TYPE relay_deliveries_accepted_total counter',
      'relay_deliveries_accepted_total{environment="live"} 2',
      'relay_deliveries_rejected_total{reason="signature_mismatch"} 1',
      'relay_sse_clients 3',
      'relay_push_latency_seconds_bucket{le="0.0025"} 0',
      'relay_push_latency_seconds_bucket{le="0.005"} 1',
      'relay_push_latency_seconds_bucket{le="0.25"} 2',
      'relay_push_latency_seconds_bucket{le="+Inf"} 2',
      'relay_push_latency_seconds_count 2',
      'relay_merchant_deliveries_rejected_total{merchant="MCH_a",reason="invalid_body"} 1',
      'relay_merchant_commit_failures_total{merchant="MCH_b"} 3',
      'relay_merchant_last_delivery_timestamp_seconds{merchant="MCH_a"} 1800000000.5',
      'relay_merchant_push_latency_seconds_bucket{le="0.01",merchant="MCH_a"} 0',
      'relay_merchant_push_latency_seconds_bucket{le="0.05",merchant="MCH_a"} 1',
      'relay_push_latency_cross_instance_seconds_count 1',
    ]) {
      expect(text).toContain(line);
    }
    expect(text.endsWith('\n')).toBe(true);
    expect(m.accepted.get({ environment: 'live' })).toBe(2);
  });

  it('carries the default process metrics (prom-client) in the text format', async () => {
    const m = new RelayMetrics();
    const text = await m.render();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    expect(m.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it("shows the instance's limits as relay_limit, the owner page's among them, as the variables set them", async () => {
    const m = new RelayMetrics();
    const env = {
      RELAY_KEYS: JSON.stringify([{ publicId: 'pk_test_Unit00001', secret: 'sk_test_UnitSecret00000000001' }]),
      RELAY_OWNER_PAGE_REQUESTS_PER_SECOND_PER_LINK: '0.5',
      RELAY_OWNER_PAGE_REQUEST_BURST_PER_LINK: '12',
      RELAY_OWNER_UNKNOWN_CREDENTIALS_PER_SECOND_PER_CLIENT: '0.02',
      RELAY_OWNER_UNKNOWN_CREDENTIAL_BURST_PER_CLIENT: '5',
      RELAY_OWNER_UNKNOWN_CREDENTIALS_PER_SECOND: '50',
    };
    showLimits(m, loadRelayConfig(undefined, env));
    const text = await m.render();
    for (const line of [
      'relay_limit{limit="ownerPageRequestsPerSecondPerLink"} 0.5',
      'relay_limit{limit="ownerPageRequestBurstPerLink"} 12',
      'relay_limit{limit="ownerUnknownCredentialsPerSecondPerClient"} 0.02',
      'relay_limit{limit="ownerUnknownCredentialBurstPerClient"} 5',
      'relay_limit{limit="ownerUnknownCredentialsPerSecond"} 50',
      'relay_limit{limit="readsPerSecondPerToken"} 5',
    ]) {
      expect(text).toContain(`${line}\n`);
    }
    showLimits(m, loadRelayConfig(undefined, { RELAY_KEYS: env.RELAY_KEYS }));
    const defaults = await m.render();
    expect(defaults).toContain('relay_limit{limit="ownerPageRequestBurstPerLink"} 30\n');
    expect(defaults).toContain('relay_limit{limit="ownerUnknownCredentialsPerSecondPerClient"} 0.1\n');
  });
});
