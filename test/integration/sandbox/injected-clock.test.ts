/**
 * startSandbox({ clock }) end to end: with an injected clock the simulated customer and the webhook schedule
 * run on that clock's time, exactly: the prompt result at +2 s, attempts at +0, +5, +15, +35 … s after it.
 * Real HTTP both ways; only time is fake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { FakeClock } from '../../unit/sandbox/fake-clock.js';
import { api, paymentBody, quietLog, startReceiver } from './helpers.js';
import { waitFor } from '../../support/wait-for.js';

let sandbox: SandboxHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const clock = new FakeClock(Date.UTC(2026, 0, 1, 12, 0, 0));

beforeAll(async () => {
  sandbox = await startSandbox({ clock, log: quietLog });
  receiver = await startReceiver((n) => (n <= 3 ? 503 : 200));
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

type Attempt = { attemptNo: number; startedAt: string; statusCode: number | null };

describe('an injected clock drives prompts and the retry schedule', () => {
  it('exact offsets on the injected clock', async () => {
    const t0 = clock.now();
    const init = await api(sandbox.baseUrl, '/v1/payments/initialize', {
      creds: { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret },
      body: paymentBody(`${receiver.url}/clock`),
    });
    expect(init.status).toBe(202);
    expect(init.json.data.createdAt).toBe(new Date(t0).toISOString());
    const reference = init.json.data.reference as string;
    const attempts = async () => {
      const list = (await api(sandbox.baseUrl, '/dashboard/api/deliveries')).json.data as {
        reference: string;
        status: string;
        attempts: Attempt[];
      }[];
      return list.find((d) => d.reference === reference);
    };

    await clock.advance(1_999);
    expect(receiver.on('/clock')).toHaveLength(0);
    // each step: move the clock to the next due instant, then let the real HTTP round trip finish
    const steps = [1, 5_000, 10_000, 20_000];
    for (const [i, step] of steps.entries()) {
      await clock.advance(step);
      await waitFor(async () => (await attempts())?.attempts.length === i + 1, 5_000, `attempt ${i + 1}`);
    }
    const delivery = await attempts();
    expect(delivery?.status).toBe('DELIVERED');
    expect(delivery?.attempts.map((a) => Date.parse(a.startedAt) - t0)).toEqual([2_000, 7_000, 17_000, 37_000]);
    expect(delivery?.attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);
    const hits = receiver.on('/clock');
    expect(hits.map((h) => Number(h.headers['x-service-timestamp']) - t0 / 1000)).toEqual([2, 7, 17, 37]);
    const body = JSON.parse(hits[0]?.raw.toString('utf8') as string);
    expect(body.createdAt).toBe(new Date(t0 + 2_000).toISOString());
    expect(body.data.completedAt).toBe(new Date(t0 + 2_000).toISOString());
  });
});
