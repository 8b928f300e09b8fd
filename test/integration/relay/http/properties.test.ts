/**
 * Property-based tests (fast-check) against the real relay on loopback: random and mutated webhook
 * bodies, headers and request targets never get a 5xx, never crash it, and never get an invalid
 * delivery accepted. Bounded runs, to fit npm test.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { webhookBodySchema } from '../../../../shared/wire/index.js';
import { get, LIVE_KEY, makeConfig, post, signedHeaders, transaction, webhookBody } from '../helpers.js';
import { rawExchange } from '../../../support/raw-socket.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';

let relay: RunningRelay;
let dir: string;
const RUNS = { numRuns: 40 };

beforeAll(async () => {
  dir = tempDir('relay-properties');
  relay = await startRelay({ dataDir: join(dir, 'data'), config: makeConfig().config, log: () => {} });
});
afterAll(async () => {
  await relay.close();
  removeDir(dir);
});

const webhooks = () => `${relay.url}/v1/webhooks`;

/** One change to a byte string: a byte replaced, inserted or removed. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), byte: fc.constant(0) }),
);

function mutate(body: Buffer, m: { kind: 'replace' | 'insert' | 'delete'; at: number; byte: number }): Buffer {
  const at = m.at % body.length;
  if (m.kind === 'replace') return Buffer.concat([body.subarray(0, at), Buffer.from([m.byte]), body.subarray(at + 1)]);
  if (m.kind === 'insert') return Buffer.concat([body.subarray(0, at), Buffer.from([m.byte]), body.subarray(at)]);
  return Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
}

describe('relay receiver under random input', () => {
  it('never accepts a signed body changed after signing, and never answers 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const body = webhookBody(transaction('live'));
        const headers = signedHeaders(body, LIVE_KEY);
        const changed = mutations.reduce(mutate, Buffer.from(body));
        fc.pre(!changed.equals(Buffer.from(body)));
        const res = await post(webhooks(), changed, headers);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      RUNS,
    );
  });

  it('answers any correctly signed body with 4xx, or 200 only when it is a valid webhook', async () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => JSON.stringify({ createdAt: '2026-11-21T10:00:01.000Z', data: v })),
      fc
        .record({ reference: fc.string(), clientReference: fc.option(fc.string()), amount: fc.string() })
        .map((o) => webhookBody(transaction('live', o))),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        const res = await post(webhooks(), body, signedHeaders(body, LIVE_KEY));
        expect(res.status).toBeLessThan(500);
        if (res.status === 200) expect(webhookBodySchema.safeParse(JSON.parse(body)).success).toBe(true);
        else expect(res.status).toBeGreaterThanOrEqual(400);
      }),
      RUNS,
    );
  });

  it('refuses random signature, timestamp and key id headers with 4xx', async () => {
    const value = fc.oneof(fc.string(), fc.stringMatching(/^v1=[0-9a-f]{0,70}$/), fc.stringMatching(/^[0-9]{0,14}$/));
    await fc.assert(
      fc.asyncProperty(value, value, fc.oneof(value, fc.constant(LIVE_KEY.publicId)), async (signature, timestamp, keyId) => {
        const body = webhookBody(transaction('live'));
        // Header values a client could send: no control characters (Node's client refuses those itself).
        const clean = (s: string) => s.replace(/[^\x20-\x7e]/g, '');
        const headers = {
          'x-service-signature': clean(signature),
          'x-service-timestamp': clean(timestamp),
          'x-service-key-id': clean(keyId),
        };
        const res = await post(webhooks(), body, headers);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }),
      RUNS,
    );
  });

  it('answers any request target without a 5xx', async () => {
    const target = fc.oneof(
      fc.stringMatching(/^[\x21-\x7e]{1,60}$/),
      fc.stringMatching(/^\/v1\/(transactions|events|webhooks)[/?%\x21-\x7e]{0,40}$/),
      fc.constantFrom('http://[::1', '/%', '/v1/transactions/%E0%A4%A', '//', '*', 'http://x:99999/'),
    );
    await fc.assert(
      fc.asyncProperty(target, fc.constantFrom('GET', 'POST', 'PUT'), async (path, method) => {
        const answer = await rawExchange(
          relay.url,
          `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
        expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
        expect(status, `${method} ${path}`).toBeLessThan(500);
      }),
      RUNS,
    );
    expect((await get(`${relay.url}/healthz`)).status).toBe(200);
    expect(relay.metrics.commitFailures.get()).toBe(0);
  });
});
