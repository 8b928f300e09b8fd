/** Spec 5 and 3.2 over real HTTP: every 401 case, revocation on the next request, key creation by status. */
import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { api, dashboard, paymentBody, useSandboxWithReceiver } from './helpers.js';

const services = useSandboxWithReceiver({ timeScale: 0.01 });

const ENDPOINTS = [
  { name: 'initialize', path: '/v1/payments/initialize', body: () => paymentBody(`${services.receiver.url}/h`) },
  { name: 'resolve', path: '/v1/accounts/resolve?msisdn=233241234567&network=MTN', body: () => undefined },
];

async function expect401(path: string, headers: Record<string, string>, body: unknown, message: RegExp) {
  const res = await api(services.sandbox.baseUrl, path, { headers, body });
  expect(res.status).toBe(401);
  expect(res.json).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(message) } });
}

describe.each(ENDPOINTS)('$name: 401 UNAUTHENTICATED', ({ path, body }) => {
  const h = (auth?: string, merchant?: string) => ({
    ...(auth === undefined ? {} : { authorization: auth }),
    ...(merchant === undefined ? {} : { 'x-service-merchant-id': merchant }),
  });

  it('without the Authorization header', async () => {
    await expect401(path, h(undefined, services.sandbox.merchantId), body(), /Missing Authorization/);
  });
  it('with a malformed Authorization header', async () => {
    for (const value of [
      'Basic abc',
      `Bearer`,
      `bearer ${services.sandbox.keys.test.secret}`,
      `Bearer ${services.sandbox.keys.test.publicId}`,
      `Bearer sk_prod_${'a'.repeat(20)}`,
      services.sandbox.keys.test.secret,
    ]) {
      await expect401(path, h(value, services.sandbox.merchantId), body(), /Authorization must be/);
    }
  });
  it('with an unknown key of the right shape', async () => {
    await expect401(path, h(`Bearer sk_test_${'Z'.repeat(40)}`, services.sandbox.merchantId), body(), /Invalid API key/);
  });
  it('without the X-Service-Merchant-Id header', async () => {
    await expect401(path, h(`Bearer ${services.sandbox.keys.test.secret}`), body(), /Missing X-Service-Merchant-Id/);
  });
  it('with a malformed Merchant ID', async () => {
    for (const value of ['MCH_short', 'mch_ABCDEFGHIJKL', 'MCH_ABCDEFGHIJK!', `${services.sandbox.merchantId}X`]) {
      await expect401(path, h(`Bearer ${services.sandbox.keys.test.secret}`, value), body(), /X-Service-Merchant-Id must look like/);
    }
  });
  it('with a well-formed Merchant ID of another merchant', async () => {
    const other = await dashboard(services.sandbox.baseUrl, '/merchants', { name: 'Other shop' });
    await expect401(path, h(`Bearer ${services.sandbox.keys.test.secret}`, other.json.data.id), body(), /does not belong to this merchant/);
    await expect401(path, h(`Bearer ${services.sandbox.keys.test.secret}`, 'MCH_000000000000'), body(), /does not belong/);
  });
});

describe('revocation, status and key creation', () => {
  async function newMerchant(status: string) {
    const m = (await dashboard(services.sandbox.baseUrl, '/merchants', { name: `Shop ${status}` })).json.data;
    const test = (await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/keys`, { environment: 'test' })).json.data;
    await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/status`, { status: 'APPROVED' });
    const live = (await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/keys`, { environment: 'live' })).json.data;
    if (status !== 'APPROVED') await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/status`, { status });
    return { id: m.id as string, test: test as { publicId: string; secret: string }, live: live as { publicId: string; secret: string } };
  }
  const resolvePath = '/v1/accounts/resolve?msisdn=233241234567&network=MTN';

  it('a revoked key gets 401 on the very next request', async () => {
    const m = await newMerchant('APPROVED');
    const creds = { merchantId: m.id, secret: m.test.secret };
    expect((await api(services.sandbox.baseUrl, resolvePath, { creds })).status).toBe(200);
    const revoked = await dashboard(services.sandbox.baseUrl, `/keys/${m.test.publicId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.revokedAt).toEqual(expect.any(String));
    const next = await api(services.sandbox.baseUrl, resolvePath, { creds });
    expect(next.status).toBe(401);
    expect(next.json.error).toEqual({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/revoked/) });
    const init = await api(services.sandbox.baseUrl, '/v1/payments/initialize', { creds, body: paymentBody(`${services.receiver.url}/h`) });
    expect(init.status).toBe(401);
    // the merchant's other key is untouched
    expect((await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: m.live.secret } })).status).toBe(200);
  });

  it.each(['SUSPENDED', 'REJECTED'])('%s disconnects every existing key; approving again reconnects them', async (status) => {
    const m = await newMerchant(status);
    for (const key of [m.test, m.live]) {
      const res = await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: key.secret } });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('UNAUTHENTICATED');
      expect(res.json.error.message).toMatch(/disconnected/);
    }
    await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/status`, { status: 'APPROVED' });
    expect((await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: m.test.secret } })).status).toBe(200);
  });

  it('Pending review locks live keys (test keys keep working)', async () => {
    const m = await newMerchant('PENDING_REVIEW');
    expect((await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: m.test.secret } })).status).toBe(200);
    const live = await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: m.live.secret } });
    expect(live.status).toBe(401);
    expect(live.json.error.message).toMatch(/locked/);
  });

  it.each([
    ['PENDING_REVIEW', 201, 403],
    ['APPROVED', 201, 201],
    ['SUSPENDED', 403, 403],
    ['REJECTED', 403, 403],
  ])('key creation while %s: test %d, live %d', async (status, testStatus, liveStatus) => {
    const m = (await dashboard(services.sandbox.baseUrl, '/merchants', { name: 'Fresh' })).json.data;
    expect(m.status).toBe('PENDING_REVIEW');
    if (status !== 'PENDING_REVIEW') await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/status`, { status });
    const test = await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/keys`, { environment: 'test' });
    const live = await dashboard(services.sandbox.baseUrl, `/merchants/${m.id}/keys`, { environment: 'live' });
    expect([test.status, live.status]).toEqual([testStatus, liveStatus]);
    for (const [res, env] of [
      [test, 'test'],
      [live, 'live'],
    ] as const) {
      if (res.status === 201) {
        expect(res.json.data.publicId).toMatch(new RegExp(`^pk_${env}_`));
        expect(res.json.data.secret).toMatch(new RegExp(`^sk_${env}_`));
        // shown once: never again in the listing
        const listed = (await api(services.sandbox.baseUrl, `/dashboard/api/merchants/${m.id}`)).json;
        expect(JSON.stringify(listed)).not.toContain(res.json.data.secret);
        // and it works
        const ok = await api(services.sandbox.baseUrl, resolvePath, { creds: { merchantId: m.id, secret: res.json.data.secret } });
        expect(ok.status).toBe(status === 'PENDING_REVIEW' && env === 'live' ? 401 : 200);
      } else {
        expect(res.json.error.code).toBe('FORBIDDEN');
      }
    }
  });

  it('the dashboard refuses mutations without its header or from another origin, and foreign Host headers', async () => {
    const noHeader = await api(services.sandbox.baseUrl, `/dashboard/api/keys/${services.sandbox.keys.test.publicId}/revoke`, { body: {} });
    expect(noHeader.status).toBe(403);
    const foreign = await api(services.sandbox.baseUrl, `/dashboard/api/keys/${services.sandbox.keys.test.publicId}/revoke`, {
      body: {},
      headers: { 'x-sandbox-dashboard': '1', origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // the demo key is still alive
    expect((await api(services.sandbox.baseUrl, resolvePath, { creds: services.creds })).status).toBe(200);
  });

  it('the dashboard refuses a foreign Host header (DNS rebinding) but serves its loopback names', async () => {
    const port = new URL(services.sandbox.baseUrl).port;
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/dashboard/api/merchants', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await statusFor(`evil.example:${port}`)).toBe(403);
    expect(await statusFor('127.0.0.1:1')).toBe(403);
    expect(await statusFor(`127.0.0.1:${port}`)).toBe(200);
    expect(await statusFor(`localhost:${port}`)).toBe(200);
  });
});
