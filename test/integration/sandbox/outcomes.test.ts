/**
 * The customer's side (test table and live by hand) and the webhook each outcome sends, checked over real
 * HTTP with an independent HMAC-SHA256 check (Node crypto directly).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../../sandbox/server.js';
import { webhookBodySchema } from '../../../shared/wire/webhook.js';
import { api, dashboard, paymentBody, quietLog, signatureValid, startReceiver, type Creds, type Received } from './helpers.js';
import { sleep, waitFor } from '../../support/wait-for.js';

// 0.02: a default prompt in 40 ms, the slow (06) path in 600 ms; the webhook time-out keeps its 1 s floor
const SCALE = 0.02;
let sandbox: SandboxHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let testCreds: Creds;
let liveCreds: Creds;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: SCALE, log: quietLog });
  receiver = await startReceiver();
  testCreds = { merchantId: sandbox.merchantId, secret: sandbox.keys.test.secret };
  liveCreds = { merchantId: sandbox.merchantId, secret: sandbox.keys.live.secret };
});
afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

async function pay(creds: Creds, path: string, msisdn: string, extra: Record<string, unknown> = {}) {
  const started = performance.now();
  const res = await api(sandbox.baseUrl, '/v1/payments/initialize', { creds, body: paymentBody(`${receiver.url}${path}`, msisdn, extra) });
  expect(res.status).toBe(202);
  return { reference: res.json.data.reference as string, started };
}

function checkHeaders(hook: Received, publicId: string) {
  expect(hook.headers['content-type']).toBe('application/json');
  expect(hook.headers['user-agent']).toBe('Service-Webhooks');
  expect(hook.headers['x-service-key-id']).toBe(publicId);
  const ts = Number(hook.headers['x-service-timestamp']);
  expect(String(hook.headers['x-service-timestamp'])).toMatch(/^\d+$/);
  expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
  expect(String(hook.headers['x-service-signature'])).toMatch(/^v1=[0-9a-f]{64}$/);
}

const TABLE = [
  { suffix: '00', status: 'SUCCESS', reason: null, minMs: 2_000 * SCALE },
  { suffix: '01', status: 'FAILED', reason: 'DECLINED', minMs: 2_000 * SCALE },
  { suffix: '02', status: 'FAILED', reason: 'TIMEOUT', minMs: 60_000 * SCALE },
  { suffix: '03', status: 'FAILED', reason: 'INSUFFICIENT_FUNDS', minMs: 2_000 * SCALE },
  { suffix: '04', status: 'FAILED', reason: 'NETWORK_REJECTED', minMs: 500 * SCALE },
  { suffix: '05', status: 'SUCCESS', reason: null, minMs: 2_000 * SCALE },
  { suffix: '06', status: 'SUCCESS', reason: null, minMs: 30_000 * SCALE },
  { suffix: '47', status: 'SUCCESS', reason: null, minMs: 2_000 * SCALE },
];

describe('test keys: the outcome chosen by the MSISDN last two digits, and its signed webhook', () => {
  it.each(TABLE)('…$suffix -> $status ($reason) after at least $minMs ms (scaled)', async ({ suffix, status, reason, minMs }) => {
    const path = `/t-${suffix}`;
    const msisdn = `2332412345${suffix}`;
    const { reference, started } = await pay(testCreds, path, msisdn, {
      merchantRef: `R-${suffix}`,
      metadata: { lane: 2, items: ['bread'] },
    });
    const hook = await waitFor(() => receiver.on(path)[0], 5_000, `webhook for ${suffix}`);
    expect(hook.at - started).toBeGreaterThanOrEqual(minMs - 2);
    if (suffix === '00') expect(hook.at - started).toBeLessThan(30_000 * SCALE); // not the slow or the time-out path

    checkHeaders(hook, sandbox.keys.test.publicId);
    expect(signatureValid(sandbox.keys.test.secret, hook)).toBe(true);
    expect(signatureValid(sandbox.keys.live.secret, hook)).toBe(false);

    const body = JSON.parse(hook.raw.toString('utf8'));
    expect(webhookBodySchema.safeParse(body).success).toBe(true);
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'data']);
    expect(body.data).toEqual({
      reference,
      clientReference: `R-${suffix}`,
      status,
      amount: '12.50',
      fee: status === 'SUCCESS' ? '0.24' : '0.00', // 1.95% of 12.50 = 0.24375, half-up to the pesewa
      net: status === 'SUCCESS' ? '12.26' : '0.00',
      currency: 'GHS',
      customer: { msisdn, network: 'SANDBOX' },
      description: 'Bread and milk',
      metadata: { lane: 2, items: ['bread'] },
      completedAt: expect.stringMatching(/Z$/),
      sandbox: true,
    });
    const tx = (await api(sandbox.baseUrl, `/dashboard/api/transactions/${reference}`)).json.data;
    expect(tx.status).toBe(status);
    expect(tx.failureReason).toBe(reason);
    // the resolved customer name is never on the wire
    expect(tx.customerName).toEqual(expect.any(String));
    expect(hook.raw.toString('utf8')).not.toContain(tx.customerName);
  });

  it('05: the network reports the same success three times; exactly one webhook goes out', async () => {
    const { reference } = await pay(testCreds, '/dedupe', '233241234505');
    await waitFor(
      async () => (await api(sandbox.baseUrl, `/dashboard/api/transactions/${reference}`)).json.data.networkReports === 3,
      5_000,
      'three reports',
    );
    await sleep(600);
    const tx = (await api(sandbox.baseUrl, `/dashboard/api/transactions/${reference}`)).json.data;
    expect(tx).toMatchObject({ status: 'SUCCESS', networkReports: 3 });
    // one final state, one delivery; the receiver saw that one webhook (once, unless an attempt had to be retried)
    const deliveries = (await api(sandbox.baseUrl, '/dashboard/api/deliveries')).json.data.filter(
      (d: { reference: string }) => d.reference === reference,
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].status).toBe('DELIVERED');
    const hits = receiver.on('/dedupe');
    expect(hits).toHaveLength(deliveries[0].attempts.length);
    expect(hits.length).toBeGreaterThanOrEqual(1);
    for (const hit of hits) expect(hit.raw.equals(hits[0]?.raw as Buffer)).toBe(true);
    expect(JSON.parse(hits[0]?.raw.toString('utf8') as string).data).toMatchObject({ reference, status: 'SUCCESS' });
  });

  it('an ordinary number is reported once', async () => {
    const { reference } = await pay(testCreds, '/once', '233241234588');
    await waitFor(() => receiver.on('/once')[0], 5_000);
    await sleep(100);
    expect((await api(sandbox.baseUrl, `/dashboard/api/transactions/${reference}`)).json.data.networkReports).toBe(1);
  });

  it('a test prompt cannot be authorised by hand', async () => {
    const { reference } = await pay(testCreds, '/t-hand', '233241234502');
    const res = await dashboard(sandbox.baseUrl, `/transactions/${reference}/authorise`);
    expect(res.status).toBe(409);
  });
});

describe('live keys: the live service, prompts decided by hand', () => {
  // the by-hand cases run on a sandbox whose prompt time-out (12 s scaled) cannot race the tester's click
  let patient: SandboxHandle;
  beforeAll(async () => {
    patient = await startSandbox({ timeScale: SCALE, promptTimeoutMs: 600_000, log: quietLog });
  });
  afterAll(async () => {
    await patient?.close();
  });
  const on = () => ({ base: patient.baseUrl, creds: { merchantId: patient.merchantId, secret: patient.keys.live.secret } });

  it('a live prompt waits for the tester; authorising sends a live webhook (no sandbox field, real network)', async () => {
    const { base, creds } = on();
    const init = await api(base, '/v1/payments/initialize', { creds, body: paymentBody(`${receiver.url}/live-ok`, '233201234501') }); // 01 would decline in test mode
    expect(init.status).toBe(202);
    const reference = init.json.data.reference as string;
    await sleep(6_000 * SCALE); // three times a test prompt's delay
    expect(receiver.on('/live-ok')).toHaveLength(0);
    const pending = (await api(base, `/dashboard/api/transactions/${reference}`)).json.data;
    expect(pending).toMatchObject({ status: 'PENDING', awaitingTester: true, environment: 'live' });
    const decided = await dashboard(base, `/transactions/${reference}/authorise`);
    expect(decided.status).toBe(200);
    const hook = await waitFor(() => receiver.on('/live-ok')[0], 5_000);
    checkHeaders(hook, patient.keys.live.publicId);
    expect(signatureValid(patient.keys.live.secret, hook)).toBe(true);
    expect(signatureValid(patient.keys.test.secret, hook)).toBe(false);
    const body = JSON.parse(hook.raw.toString('utf8'));
    expect(body.data).not.toHaveProperty('sandbox');
    expect(body.data).toMatchObject({
      reference,
      status: 'SUCCESS',
      fee: '0.24',
      net: '12.26',
      customer: { msisdn: '233201234501', network: 'MTN' },
    });
    // a second decision is refused
    expect((await dashboard(base, `/transactions/${reference}/decline`)).status).toBe(409);
  });

  it('declining sends FAILED with fee and net 0.00', async () => {
    const { base, creds } = on();
    const init = await api(base, '/v1/payments/initialize', {
      creds,
      body: { ...paymentBody(`${receiver.url}/live-no`, '233201230000'), customer: { msisdn: '233201230000', network: 'TELECEL' } },
    });
    const reference = init.json.data.reference as string;
    expect((await dashboard(base, `/transactions/${reference}/decline`)).status).toBe(200);
    const hook = await waitFor(() => receiver.on('/live-no')[0], 5_000);
    const body = JSON.parse(hook.raw.toString('utf8'));
    expect(body.data).toMatchObject({ reference, status: 'FAILED', fee: '0.00', net: '0.00', customer: { network: 'TELECEL' } });
    expect(body.data).not.toHaveProperty('sandbox');
    expect((await api(base, `/dashboard/api/transactions/${reference}`)).json.data.failureReason).toBe('DECLINED');
  });

  it('an undecided live prompt times out after the prompt time-out (60 s scaled)', async () => {
    const { reference, started } = await pay(liveCreds, '/live-timeout', '233241230001');
    const hook = await waitFor(() => receiver.on('/live-timeout')[0], 5_000);
    expect(hook.at - started).toBeGreaterThanOrEqual(60_000 * SCALE - 2);
    expect(JSON.parse(hook.raw.toString('utf8')).data.status).toBe('FAILED');
    expect((await api(sandbox.baseUrl, `/dashboard/api/transactions/${reference}`)).json.data.failureReason).toBe('TIMEOUT');
  });
});

describe('settings', () => {
  it('signedPayload timestamp.body signs "<timestamp>.<body>", and the fee rate is configurable', async () => {
    const other = await startSandbox({ timeScale: SCALE, signedPayload: 'timestamp.body', feeBasisPoints: 250, log: quietLog });
    try {
      const res = await api(other.baseUrl, '/v1/payments/initialize', {
        creds: { merchantId: other.merchantId, secret: other.keys.test.secret },
        body: paymentBody(`${receiver.url}/tsbody`, '233241234567', { amount: '100.00' }),
      });
      expect(res.status).toBe(202);
      const hook = await waitFor(() => receiver.on('/tsbody')[0], 5_000);
      expect(signatureValid(other.keys.test.secret, hook, 'timestamp.body')).toBe(true);
      expect(signatureValid(other.keys.test.secret, hook, 'body')).toBe(false);
      expect(JSON.parse(hook.raw.toString('utf8')).data).toMatchObject({ fee: '2.50', net: '97.50' });
    } finally {
      await other.close();
    }
  });
});
