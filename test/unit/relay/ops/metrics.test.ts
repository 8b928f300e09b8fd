import { describe, expect, it } from 'vitest';
import { RelayMetrics } from '../../../../relay/ops/index.js';

describe('relay metrics', () => {
  it('renders Prometheus text with labels, gauges and a cumulative histogram', () => {
    const m = new RelayMetrics();
    m.accepted.inc({ environment: 'live' });
    m.accepted.inc({ environment: 'live' });
    m.rejected.inc({ reason: 'signature_mismatch' });
    m.sseClients.set(3);
    m.pushLatency.observe(0.003);
    m.pushLatency.observe(0.2);
    const text = m.render();
    expect(text).toContain('# TYPE relay_deliveries_accepted_total counter');
    expect(text).toContain('relay_deliveries_accepted_total{environment="live"} 2');
    expect(text).toContain('relay_deliveries_rejected_total{reason="signature_mismatch"} 1');
    expect(text).toContain('relay_sse_clients 3');
    expect(text).toContain('relay_push_latency_seconds_bucket{le="0.0025"} 0');
    expect(text).toContain('relay_push_latency_seconds_bucket{le="0.005"} 1');
    expect(text).toContain('relay_push_latency_seconds_bucket{le="0.25"} 2');
    expect(text).toContain('relay_push_latency_seconds_bucket{le="+Inf"} 2');
    expect(text).toContain('relay_push_latency_seconds_count 2');
    expect(text.endsWith('\n')).toBe(true);
  });
});
