/**
 * The delivery schedule over real HTTP at time scale 0.02 (0.01 leaves a 150 ms time-out, which a loaded
 * shared 2-core machine sometimes misses for an instant 500; 0.02 runs the 635 s schedule in 12.7 s): a receiver failing the first N attempts for
 * N = 0..8, the 15 s time-out (300 ms scaled, set explicitly: the default has a 1 s floor), network errors and non-2xx answers.
 * The exact offsets are asserted on an injected clock in test/unit/sandbox/deliveries-schedule.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { api, paymentBody, quietLog, signatureValid, startReceiver, type Creds } from './helpers.js';
import { waitFor } from '../../support/wait-for.js';

const SCALE = 0.02;
const TIMEOUT = 15_000 * SCALE;
const OFFSETS = [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000].map((ms) => ms * SCALE);
const SLACK_MS = 1000; // a loaded 2-core CI machine; the lower bound is the real check (exact offsets: the unit tests)

let sandbox: SandboxHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let creds: Creds;
const references = new Map<string, string>();
let refusedUrl: string;

type Delivery = {
  status: string;
  attempts: { attemptNo: number; startedAt: string; statusCode: number | null; error: string | null; durationMs: number; ok: boolean }[];
};
async function deliveryOf(path: string): Promise<Delivery> {
  const reference = references.get(path);
  const list = (await api(sandbox.baseUrl, '/dashboard/api/deliveries')).json.data as (Delivery & { reference: string })[];
  const found = list.find((d) => d.reference === reference);
  if (!found) throw new Error(`no delivery for ${path}`);
  return found;
}

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: SCALE, deliveryTimeoutMs: TIMEOUT, log: quietLog });
  creds = { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret };
  receiver = await startReceiver((n, r) => {
    const failN = /^\/fail-(\d)$/.exec(r.path);
    if (failN) return n <= Number(failN[1]) ? 500 : 200;
    if (r.path === '/slow') return n === 1 ? 'hang' : 204;
    if (r.path === '/redirect') return n === 1 ? 302 : 200;
    if (r.path === '/client-error') return n <= 2 ? 404 : 201;
    return 200;
  });
  // A port below the ephemeral range that nothing listens on: a freed ephemeral port can be taken by
  // another test's server in the meantime (seen under load), which answered 404 instead of refusing.
  refusedUrl = `http://127.0.0.1:${await refusingPort()}`;

  const paths = [...Array.from({ length: 9 }, (_, n) => `/fail-${n}`), '/slow', '/redirect', '/client-error'];
  for (const path of paths) {
    const res = await api(sandbox.baseUrl, '/v1/payments/initialize', { creds, body: paymentBody(`${receiver.url}${path}`) });
    references.set(path, res.json.data.reference);
  }
  const res = await api(sandbox.baseUrl, '/v1/payments/initialize', { creds, body: paymentBody(`${refusedUrl}/gone`) });
  references.set('/refused', res.json.data.reference);
  // the longest schedule: 635 s scaled = 12.7 s
  await waitFor(
    async () => {
      const list = (await api(sandbox.baseUrl, '/dashboard/api/deliveries')).json.data as { status: string }[];
      return list.length === references.size && list.every((d) => d.status !== 'PENDING');
    },
    30_000,
    'every delivery to end',
    250,
  );
}, 45_000);

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

describe('a receiver failing the first N attempts', () => {
  it.each(Array.from({ length: 9 }, (_, n) => n))('N = %i', async (n) => {
    const path = `/fail-${n}`;
    const hits = receiver.on(path);
    const expected = Math.min(n + 1, 8);
    expect(hits).toHaveLength(expected);
    // relative timings: each retry waits at least its offset after the previous failure
    for (let i = 1; i < hits.length; i++) {
      const gap = (hits[i]?.at as number) - (hits[i - 1]?.at as number);
      expect(gap).toBeGreaterThanOrEqual((OFFSETS[i - 1] as number) - 2);
      expect(gap).toBeLessThan((OFFSETS[i - 1] as number) + SLACK_MS);
    }
    // every attempt carries the same body, signed afresh and valid
    for (const hit of hits) {
      expect(hit.raw.equals(hits[0]?.raw as Buffer)).toBe(true);
      expect(signatureValid(sandbox.keys.test.secret, hit)).toBe(true);
    }
    const delivery = await deliveryOf(path);
    expect(delivery.status).toBe(n >= 8 ? 'FAILED' : 'DELIVERED');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual(hits.map((_, i) => (i < n ? 500 : 200)));
    expect(delivery.attempts.map((a) => a.attemptNo)).toEqual(hits.map((_, i) => i + 1));
  });
});

describe('what counts as a failed attempt', () => {
  it('no answer within 15 s (scaled) fails the attempt; the retry follows 5 s (scaled) later', async () => {
    expect(receiver.on('/slow')).toHaveLength(2);
    const delivery = await deliveryOf('/slow');
    // measured where the time-out runs: from the start of attempt 1 to the start of attempt 2
    const [first, second] = delivery.attempts.map((a) => Date.parse(a.startedAt));
    expect((second as number) - (first as number)).toBeGreaterThanOrEqual(TIMEOUT + (OFFSETS[0] as number));
    expect((second as number) - (first as number)).toBeLessThan(TIMEOUT + (OFFSETS[0] as number) + SLACK_MS);
    expect(delivery.status).toBe('DELIVERED');
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, ok: false, error: expect.stringMatching(/timeout/) });
    expect(delivery.attempts[0]?.durationMs).toBeGreaterThanOrEqual(TIMEOUT - 2);
    expect(delivery.attempts[0]?.durationMs).toBeLessThan(TIMEOUT + SLACK_MS);
    expect(delivery.attempts[1]).toMatchObject({ statusCode: 204, ok: true });
  });

  it('a redirect is not followed and is a failed attempt', async () => {
    expect(receiver.on('/redirect')).toHaveLength(2);
    expect((await deliveryOf('/redirect')).attempts.map((a) => a.statusCode)).toEqual([302, 200]);
  });

  it('a 4xx is a failed attempt and any 2xx is delivered', async () => {
    const delivery = await deliveryOf('/client-error');
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([404, 404, 201]);
    expect(delivery.status).toBe('DELIVERED');
  });

  it('a network error is a failed attempt, recorded with its error; after 8 the delivery is FAILED', async () => {
    const delivery = await deliveryOf('/refused');
    expect(delivery.status).toBe('FAILED');
    expect(delivery.attempts).toHaveLength(8);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ statusCode: null, ok: false, error: expect.stringMatching(/ECONNREFUSED/) });
    }
  });
});

/** A privileged port that refuses connections here (checked, not assumed). */
async function refusingPort(): Promise<number> {
  for (const port of [9, 19, 47, 1, 7]) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no refusing port found on 127.0.0.1');
}
