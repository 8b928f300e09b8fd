/**
 * Monitoring a multi-merchant relay against a real PostgreSQL: series labelled by
 * merchant, a push across instances timed on the instance that pushes it, request and merchant ids on
 * log lines, and relay_database_up kept current with nobody reading /healthz.
 */
import { afterEach, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { sleep } from '../../../../support/wait-for.js';
import { deliver, get, LIVE_KEY, post, signedHeaders, SseClient, transaction, webhookBody } from '../../helpers.js';
import { seedPgTenant, TEST_MERCHANT } from '../../stores.js';

describePg('relay on PostgreSQL: monitoring', () => {
  const cluster = usePgCluster();
  const cleanups: Array<() => Promise<unknown> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function relays(n: number, logs: Array<Record<string, unknown>>) {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const started: RunningRelay[] = [];
    for (let i = 0; i < n; i++) {
      const relay = await startRelay({
        databaseUrl,
        masterKey,
        adminPort: 0,
        config: {},
        catchUpMs: 250,
        log: (l) => logs.push({ instance: i, ...l }),
      });
      started.push(relay);
      cleanups.push(() => relay.close());
    }
    return { started, token };
  }

  it('labels by merchant, and times a push from another instance on the instance that pushes it', async () => {
    const logs: Array<Record<string, unknown>> = [];
    const { started, token } = await relays(2, logs);
    const [a, b] = started as [RunningRelay, RunningRelay];
    const sse = await SseClient.connect(`${b.url}/v1/events`, token);
    cleanups.push(() => sse.close());
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'hello'));
    await sleep(100);
    for (let i = 0; i < 3; i++) expect((await deliver(a.url, transaction('live'), LIVE_KEY)).status).toBe(200);
    await sse.waitFor((c) => c.events.length === 3);

    // Committed on A, pushed by B: B times it; A pushed nothing.
    expect(b.metrics.crossInstancePushLatency.observations).toBe(3);
    expect(a.metrics.crossInstancePushLatency.observations).toBe(0);
    expect(b.metrics.merchantPushLatency.observations).toBe(3);
    const bText = (await get(`${b.adminUrl}/metrics`)).body;
    expect(bText).toMatch(new RegExp(`^relay_merchant_push_latency_seconds_count\\{merchant="${TEST_MERCHANT}"\\} 3$`, 'm'));
    expect(bText).toMatch(/^relay_push_latency_cross_instance_seconds_count 3$/m);
    expect(bText).toMatch(/^process_resident_memory_bytes \d+/m);

    // A refused delivery whose key names the merchant is counted for it, and logged with the request's id.
    const body = webhookBody({ ...transaction('live'), amount: '12.5' });
    const refused = await post(`${a.url}/v1/webhooks`, body, { ...signedHeaders(body, LIVE_KEY), 'x-request-id': 'edge-7f3a' });
    expect(refused.status).toBe(400);
    const aText = (await get(`${a.adminUrl}/metrics`)).body;
    expect(aText).toContain(`relay_merchant_deliveries_rejected_total{merchant="${TEST_MERCHANT}",reason="invalid_body"} 1`);
    expect(aText).toMatch(new RegExp(`^relay_merchant_last_delivery_timestamp_seconds\\{merchant="${TEST_MERCHANT}"\\} \\d+`, 'm'));
    expect(logs.find((l) => l.msg === 'webhook_rejected')).toMatchObject({ merchantId: TEST_MERCHANT, requestId: 'edge-7f3a' });
    // Nothing that identifies a till or a payment is a label.
    for (const text of [aText, bText]) expect(text).not.toMatch(/rt_[A-Za-z0-9_-]{20}|TX_|reference="|token="/);
  });

  it('sets relay_database_up to 0 during an outage with nobody reading /healthz, and back to 1 after', async () => {
    const logs: Array<Record<string, unknown>> = [];
    const { started } = await relays(1, logs);
    const relay = started[0]!;
    expect(relay.metrics.databaseUp.get()).toBe(1);
    await cluster().stopFast();
    try {
      const deadline = Date.now() + 15_000;
      while (relay.metrics.databaseUp.get() !== 0 && Date.now() < deadline) await sleep(200);
      expect(relay.metrics.databaseUp.get()).toBe(0);
    } finally {
      await cluster().start();
    }
    const deadline = Date.now() + 20_000;
    while (relay.metrics.databaseUp.get() !== 1 && Date.now() < deadline) await sleep(200);
    expect(relay.metrics.databaseUp.get()).toBe(1);
  });
});
