/** Restarting on the same data dir: the demo merchant and keys are reused, pending deliveries and prompts resume. */
import { describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { api, paymentBody, quietLog, signatureValid, useRestartableSandbox } from './helpers.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { sleep, waitFor } from '../../support/wait-for.js';

const SCALE = 0.02;
const env = useRestartableSandbox('sandbox', SCALE, (n, r) => (r.path === '/persist' && n <= 4 ? 500 : 200));
const { start, handles } = env;

type Attempt = { attemptNo: number; startedAt: string; statusCode: number | null };
async function deliveryOf(baseUrl: string, reference: string): Promise<{ status: string; attempts: Attempt[] } | undefined> {
  const list = (await api(baseUrl, '/dashboard/api/deliveries')).json.data as { reference: string; status: string; attempts: Attempt[] }[];
  return list.find((d) => d.reference === reference);
}

describe('restart on the same data dir', () => {
  it('a delivery stopped mid-schedule resumes at its stored time and completes; a pending prompt resumes too', async () => {
    const first = await start();
    const creds = { merchantId: first.merchantId, secret: first.keys.test.secret };
    const init = await api(first.baseUrl, '/v1/payments/initialize', { creds, body: paymentBody(`${env.receiver.url}/persist`) });
    expect(init.status).toBe(202);
    const reference = init.json.data.reference as string;
    // a slow prompt (06: 30 s, 600 ms scaled) still pending when the simulator stops
    const slow = await api(first.baseUrl, '/v1/payments/initialize', {
      creds,
      body: paymentBody(`${env.receiver.url}/slow-prompt`, '233241234506'),
    });
    expect(slow.status).toBe(202);

    await waitFor(async () => (await deliveryOf(first.baseUrl, reference))?.attempts.length === 2, 5_000, 'two attempts');
    await first.close();
    const stoppedAt = Date.now();
    const hitsBeforeRestart = env.receiver.on('/persist').length;
    expect(hitsBeforeRestart).toBe(2);
    await sleep(100);
    expect(env.receiver.on('/persist')).toHaveLength(2); // nothing is sent while it is down

    const second = await start();
    expect(second.merchantId).toBe(first.merchantId);
    expect(second.keys).toEqual(first.keys);
    const done = await waitFor(
      async () => {
        const d = await deliveryOf(second.baseUrl, reference);
        return d?.status === 'DELIVERED' ? d : undefined;
      },
      10_000,
      'the resumed delivery',
    );
    expect(done.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 200]);
    expect(done.attempts.map((a) => a.attemptNo)).toEqual([1, 2, 3, 4, 5]);
    const starts = done.attempts.map((a) => Date.parse(a.startedAt));
    // attempt 3 kept its place in the schedule: at least +10 s (scaled) after attempt 2, and after the restart
    expect((starts[2] as number) - (starts[1] as number)).toBeGreaterThanOrEqual(10_000 * SCALE);
    expect(starts[2] as number).toBeGreaterThanOrEqual(stoppedAt);
    expect((starts[3] as number) - (starts[2] as number)).toBeGreaterThanOrEqual(20_000 * SCALE);
    const hits = env.receiver.on('/persist');
    expect(hits).toHaveLength(5);
    for (const hit of hits) expect(signatureValid(first.keys.test.secret, hit)).toBe(true);

    const slowHook = await waitFor(() => env.receiver.on('/slow-prompt')[0], 5_000, 'the resumed prompt');
    expect(JSON.parse(slowHook.raw.toString('utf8')).data).toMatchObject({ reference: slow.json.data.reference, status: 'SUCCESS' });
    await sleep(200);
    expect(env.receiver.on('/slow-prompt')).toHaveLength(1);
  });

  it('key material is kept with a 0600 master key; a key created through the API is never shown again', async () => {
    expect(statSync(join(env.dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    const h = handles.at(-1) as SandboxHandle;
    const created = await api(h.baseUrl, `/dashboard/api/merchants/${h.merchantId}/keys`, {
      body: { environment: 'test' },
      headers: { 'x-sandbox-dashboard': '1' },
    });
    expect(created.status).toBe(201);
    await h.close();
    const again = await start();
    const listing = JSON.stringify((await api(again.baseUrl, `/dashboard/api/merchants/${again.merchantId}`)).json);
    expect(listing).toContain(created.json.data.publicId);
    expect(listing).not.toContain(created.json.data.secret);
    // and the new key still authenticates after the restart
    const res = await api(again.baseUrl, '/v1/accounts/resolve?msisdn=233241234567&network=MTN', {
      creds: { merchantId: again.merchantId, secret: created.json.data.secret },
    });
    expect(res.status).toBe(200);
  });
});

describe('one simulator per data dir', () => {
  it('a second sandbox on an open data dir is refused; after close it opens', async () => {
    const dir = tempDir('sandbox');
    try {
      const first = await startSandbox({ dataDir: dir, log: quietLog });
      await expect(startSandbox({ dataDir: dir, log: quietLog })).rejects.toThrow(/already open|in use/);
      await first.close();
      const second = await startSandbox({ dataDir: dir, log: quietLog });
      expect(second.merchantId).toBe(first.merchantId);
      await second.close();
    } finally {
      removeDir(dir);
    }
  });
});
