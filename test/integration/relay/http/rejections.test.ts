/**
 * Every refused delivery is treated as if it never happened: nothing stored, nothing pushed,
 * counted by reason, logged without the body or personal data.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { relayPageSchema } from '../../../../shared/relay-wire.js';
import type { RunningRelay } from '../../../../relay/http/index.js';
import { describeEachStore, type StartedRelay } from '../stores.js';
import { get, LIVE_KEY, post, signedHeaders, SseClient, TEST_KEY, transaction, webhookBody, deliver } from '../helpers.js';

type Case = {
  name: string;
  reason: string;
  status: number;
  build: () => { body: string | Buffer; headers: Record<string, string> };
};

const MSISDN = '233241234567';

function liveBody() {
  return webhookBody(transaction('live'));
}

/** Deliveries holding U+0000 or an unpaired surrogate (PostgreSQL's jsonb keeps neither), and the field each names. */
function unstorable(): Array<[string, Record<string, unknown>]> {
  return [
    ['data.description', { ...transaction('live'), description: 'x\u0000' }],
    ['data.metadata.note', { ...transaction('live'), metadata: { note: 'a\ud800b' } }],
    ['data.reference', transaction('live', { reference: `TX_\udc00${Math.random()}` })],
    ['data.metadata.\\ud83d', { ...transaction('live'), metadata: { '\ud83d': 'key' } }],
  ];
}

const cases: Case[] = [
  {
    name: 'no signature',
    reason: 'missing_signature',
    status: 401,
    build: () => {
      const body = liveBody();
      const { 'x-service-signature': _drop, ...headers } = signedHeaders(body, LIVE_KEY);
      return { body, headers };
    },
  },
  {
    name: 'wrong signature (signed with another secret)',
    reason: 'signature_mismatch',
    status: 401,
    build: () => {
      const body = liveBody();
      const headers = signedHeaders(body, { publicId: LIVE_KEY.publicId, secret: `sk_live_${'SomeoneElse0000000000'}` }); // split so secret scanners do not flag a fixture
      return { body, headers };
    },
  },
  {
    name: 'tampered body (amount changed after signing)',
    reason: 'signature_mismatch',
    status: 401,
    build: () => {
      const body = liveBody();
      const headers = signedHeaders(body, LIVE_KEY);
      return { body: body.replace('"12.50"', '"92.50"').replace('"12.26"', '"92.26"'), headers };
    },
  },
  {
    name: 'unknown key id',
    reason: 'unknown_key',
    status: 401,
    build: () => {
      const body = liveBody();
      const headers = signedHeaders(body, { publicId: 'pk_live_Unknown0009', secret: LIVE_KEY.secret });
      return { body, headers };
    },
  },
  {
    name: 'no key id',
    reason: 'missing_key_id',
    status: 401,
    build: () => {
      const body = liveBody();
      const { 'x-service-key-id': _drop, ...headers } = signedHeaders(body, LIVE_KEY);
      return { body, headers };
    },
  },
  {
    name: 'wrong scheme tag (v2= with a correct digest)',
    reason: 'unknown_scheme',
    status: 401,
    build: () => {
      const body = liveBody();
      const headers = signedHeaders(body, LIVE_KEY);
      const hex = createHmac('sha256', LIVE_KEY.secret).update(body).digest('hex');
      return { body, headers: { ...headers, 'x-service-signature': `v2=${hex}` } };
    },
  },
  {
    name: 'test key with a live body (no data.sandbox)',
    reason: 'environment_mismatch',
    status: 400,
    build: () => {
      const body = webhookBody(transaction('live'));
      return { body, headers: signedHeaders(body, TEST_KEY) };
    },
  },
  {
    name: 'live key with a sandbox body (data.sandbox: true)',
    reason: 'environment_mismatch',
    status: 400,
    build: () => {
      const body = webhookBody(transaction('test'));
      return { body, headers: signedHeaders(body, LIVE_KEY) };
    },
  },
  {
    name: 'malformed JSON (correctly signed)',
    reason: 'malformed_json',
    status: 400,
    build: () => {
      const body = liveBody().slice(0, -5);
      return { body, headers: signedHeaders(body, LIVE_KEY) };
    },
  },
  {
    name: 'valid JSON that is not a webhook body (correctly signed)',
    reason: 'invalid_body',
    status: 400,
    build: () => {
      const body = webhookBody({ ...transaction('live'), amount: '12.5' });
      return { body, headers: signedHeaders(body, LIVE_KEY) };
    },
  },
  ...unstorable().map(([field, data]): Case => ({
    name: `${field} holding what no store can keep`,
    reason: 'unstorable_characters',
    status: 400,
    build: () => {
      const body = webhookBody(data);
      return { body, headers: signedHeaders(body, LIVE_KEY) };
    },
  })),
  {
    name: 'oversized body',
    reason: 'body_too_large',
    status: 413,
    build: () => {
      const body = webhookBody({ ...transaction('live'), description: 'x'.repeat(70 * 1024) });
      return { body, headers: signedHeaders(body, LIVE_KEY) };
    },
  },
];

describeEachStore('relay: refused deliveries leave no trace but a counter and a clean log line', (store) => {
  let started: StartedRelay;
  const logs: Array<Record<string, unknown>> = [];
  let relay: RunningRelay;
  let token: string;
  let sse: SseClient;

  beforeAll(async () => {
    started = await store.start({ log: (l) => logs.push(l) });
    ({ relay, token } = started);
    sse = await SseClient.connect(`${relay.url}/v1/events`, token);
  });
  afterAll(async () => {
    sse.close();
    await started.cleanup();
  });

  for (const c of cases) {
    it(`refuses: ${c.name} -> ${c.status} (${c.reason})`, async () => {
      const before = relay.metrics.rejected.get({ reason: c.reason });
      const { body, headers } = c.build();
      const res = await post(`${relay.url}/v1/webhooks`, body, headers);
      expect(res.status).toBe(c.status);
      expect(relay.metrics.rejected.get({ reason: c.reason })).toBe(before + 1);
      const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
      expect(page.items).toHaveLength(0);
    });
  }

  it('refuses an oversized body sent chunked (no Content-Length) while streaming it', async () => {
    const before = relay.metrics.rejected.get({ reason: 'body_too_large' });
    const body = webhookBody({ ...transaction('live'), description: 'x'.repeat(70 * 1024) });
    const res = await post(`${relay.url}/v1/webhooks`, body, { ...signedHeaders(body, LIVE_KEY), 'transfer-encoding': 'chunked' });
    // The relay answers 413 as soon as the cap is passed; the client may see the reset first.
    expect([413, -1]).toContain(res.status);
    expect(relay.metrics.rejected.get({ reason: 'body_too_large' })).toBe(before + 1);
    const small = await deliver(relay.url, { ...transaction('live'), description: 'y'.repeat(1000) }, LIVE_KEY);
    expect(small.status).toBe(200);
  });

  it('names the field no store can keep in its 400, and answers a repeat exactly as the first', async () => {
    for (const [field, data] of unstorable()) {
      const body = webhookBody(data);
      const first = await post(`${relay.url}/v1/webhooks`, body, signedHeaders(body, LIVE_KEY));
      const again = await post(`${relay.url}/v1/webhooks`, body, signedHeaders(body, LIVE_KEY));
      expect(first.status, field).toBe(400);
      expect(first.json).toMatchObject({
        error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(new RegExp(`^${field.replace(/[.\\]/g, '\\$&')}: `)) },
      });
      expect({ status: again.status, json: again.json }).toEqual({ status: first.status, json: first.json });
    }
    // Kept whole, a pair of surrogates (an emoji) is text like any other.
    expect((await deliver(relay.url, { ...transaction('live'), description: 'y\ud83d\ude00' }, LIVE_KEY)).status).toBe(200);
  });

  it('pushed nothing for any refused delivery, and logged no body or personal data', async () => {
    const pushed = sse.events.map((e) => e.transaction.description);
    expect(pushed.every((d) => d.startsWith('y'))).toBe(true);
    const rejectedLines = logs.filter((l) => l.msg === 'webhook_rejected');
    // Repeats of a reason are aggregated (one line, then a count): every reason has its line.
    expect(new Set(rejectedLines.map((l) => l.reason))).toEqual(new Set(cases.map((c) => c.reason)));
    const text = JSON.stringify(logs);
    expect(text).not.toContain(MSISDN);
    expect(text).not.toContain('Counter sale');
    expect(text).not.toContain(LIVE_KEY.secret);
    expect(text).not.toContain(TEST_KEY.secret);
    const metrics = (await get(`${relay.adminUrl}/metrics`)).body;
    for (const reason of new Set(cases.map((c) => c.reason))) {
      expect(metrics).toMatch(new RegExp(`relay_deliveries_rejected_total\\{reason="${reason}"\\} [1-9]`));
    }
  });
});

describeEachStore('relay: timestamp tolerance when the timestamp is signed', (store) => {
  let started: StartedRelay;
  let relay: RunningRelay;
  let token: string;
  const NOW = Date.parse('2026-11-21T12:00:00Z');

  beforeAll(async () => {
    started = await store.start({ settings: { signedPayload: 'timestamp.body', timestampToleranceSeconds: 300 }, now: () => NOW });
    ({ relay, token } = started);
  });
  afterAll(async () => {
    await started.cleanup();
  });

  it('refuses a stale timestamp and one from the future, accepts one inside the window', async () => {
    const nowS = NOW / 1000;
    const stale = await deliver(relay.url, transaction('live'), LIVE_KEY, { timestamp: nowS - 301, signedPayload: 'timestamp.body' });
    expect(stale.status).toBe(401);
    expect(JSON.stringify(stale.json)).toContain('tolerance');
    const future = await deliver(relay.url, transaction('live'), LIVE_KEY, { timestamp: nowS + 301, signedPayload: 'timestamp.body' });
    expect(future.status).toBe(401);
    expect(relay.metrics.rejected.get({ reason: 'timestamp_out_of_tolerance' })).toBe(2);

    // Signed over the body only, while the relay expects timestamp.body: refused.
    const bodyOnly = await deliver(relay.url, transaction('live'), LIVE_KEY, { timestamp: nowS, signedPayload: 'body' });
    expect(bodyOnly.status).toBe(401);

    const fresh = transaction('live');
    const ok = await deliver(relay.url, fresh, LIVE_KEY, { timestamp: nowS - 299, signedPayload: 'timestamp.body' });
    expect(ok.status).toBe(200);
    const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
    expect(page.items.map((e) => e.transaction.reference)).toEqual([fresh.reference]);
    expect(page.items[0]!.receivedAt).toBe(new Date(NOW).toISOString());
  });
});
