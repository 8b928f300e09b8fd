/**
 * Suffix 07 (pawaPay's "no callback" number): the payment is authorised, its webhook is held (none sent,
 * also after a restart) until the dashboard replays it, which sends exactly one, signed.
 */
import { expect, it } from 'vitest';
import { api, dashboard, paymentBody, signatureValid, useRestartableSandbox } from './helpers.js';
import { sleep, waitFor } from '../../support/wait-for.js';

// 0.02: the prompt is answered in 40 ms, and a scheduled delivery would go out at once after it.
const SCALE = 0.02;
const env = useRestartableSandbox('sandbox-07', SCALE);
const { start } = env;

type Delivery = { id: string; status: string; nextAttemptAt: string | null; attempts: unknown[] };
async function deliveryOf(baseUrl: string, reference: string): Promise<Delivery | undefined> {
  const list = (await dashboard(baseUrl, '/deliveries')).json.data as (Delivery & { reference: string })[];
  return list.find((d) => d.reference === reference);
}

it('a number ending 07 is authorised but gets no webhook, also after a restart, until its delivery is replayed: then exactly one', async () => {
  let sandbox = await start();
  const creds = { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret };
  const started = await api(sandbox.baseUrl, '/v1/payments/initialize', {
    creds,
    body: paymentBody(`${env.receiver.url}/no-callback`, '233241234507'),
  });
  expect(started.status).toBe(202);
  const reference = started.json.data.reference as string;

  const held = await waitFor(() => deliveryOf(sandbox.baseUrl, reference), 5_000, 'the held delivery');
  expect((await dashboard(sandbox.baseUrl, `/transactions/${reference}`)).json.data.status).toBe('SUCCESS');
  expect(held).toMatchObject({ status: 'PENDING', nextAttemptAt: null, attempts: [] });
  await sleep(500); // 5 s of simulated time: attempts 1 and 2 of a normal schedule would have gone out
  expect(env.receiver.on('/no-callback')).toHaveLength(0);

  // A restart resumes pending deliveries; a held one stays held.
  await sandbox.close();
  sandbox = await start();
  await sleep(500);
  expect(env.receiver.on('/no-callback')).toHaveLength(0);

  const replay = await dashboard(sandbox.baseUrl, `/deliveries/${held.id}/replay`);
  expect(replay.status).toBe(200);
  const hooks = await waitFor(
    () => (env.receiver.on('/no-callback').length > 0 ? env.receiver.on('/no-callback') : undefined),
    5_000,
    'the replay',
  );
  expect(signatureValid(sandbox.keys.test.secret, hooks[0]!)).toBe(true);
  expect(JSON.parse(hooks[0]!.raw.toString('utf8')).data).toMatchObject({ reference, status: 'SUCCESS' });
  expect(await deliveryOf(sandbox.baseUrl, reference)).toMatchObject({ status: 'DELIVERED', attempts: [expect.anything()] });
  await sleep(500);
  expect(env.receiver.on('/no-callback')).toHaveLength(1);
});
