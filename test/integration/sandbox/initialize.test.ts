/** POST /v1/payments/initialize and GET /v1/accounts/resolve over real HTTP: validation, idempotency, limits. */
import { describe, expect, it } from 'vitest';
import { api, paymentBody, useSandboxWithReceiver } from './helpers.js';
import { sleep, waitFor } from '../../support/wait-for.js';

const services = useSandboxWithReceiver({ timeScale: 0.02 });
const INIT = '/v1/payments/initialize';

describe('initialize: validation errors name the field (400 VALIDATION_ERROR)', () => {
  const base = () => paymentBody(`${services.receiver.url}/v`);
  const without = (field: string) => {
    const body: Record<string, unknown> = base();
    delete body[field];
    return body;
  };
  const cases: [string, () => unknown, RegExp][] = [
    ['amount missing', () => without('amount'), /^amount/],
    ['amount with one decimal', () => ({ ...base(), amount: '1.5' }), /^amount: .*two decimal places/],
    ['amount negative', () => ({ ...base(), amount: '-1.00' }), /^amount/],
    ['amount in exponent form', () => ({ ...base(), amount: '1e3' }), /^amount/],
    ['amount zero', () => ({ ...base(), amount: '0.00' }), /^amount: .*more than/],
    ['amount as a number', () => ({ ...base(), amount: 12.5 }), /^amount/],
    ['amount absurdly long', () => ({ ...base(), amount: `${'9'.repeat(30)}.00` }), /^amount: .*too large/],
    ['callbackUrl missing', () => without('callbackUrl'), /^callbackUrl/],
    ['callbackUrl not a URL', () => ({ ...base(), callbackUrl: 'not a url' }), /^callbackUrl/],
    ['callbackUrl not http(s)', () => ({ ...base(), callbackUrl: 'ftp://127.0.0.1/x' }), /^callbackUrl/],
    ['customer missing', () => without('customer'), /^customer/],
    ['customer.msisdn in local form', () => ({ ...base(), customer: { msisdn: '0241234567', network: 'MTN' } }), /^customer\.msisdn/],
    [
      'customer.msisdn not a Ghana mobile',
      () => ({ ...base(), customer: { msisdn: '233001234567', network: 'MTN' } }),
      /^customer\.msisdn/,
    ],
    ['customer.msisdn missing', () => ({ ...base(), customer: { network: 'MTN' } }), /^customer\.msisdn/],
    ['customer.network unknown', () => ({ ...base(), customer: { msisdn: '233241234567', network: 'VODAFONE' } }), /^customer\.network/],
    ['customer.network missing', () => ({ ...base(), customer: { msisdn: '233241234567' } }), /^customer\.network/],
    ['merchantRef with a space', () => ({ ...base(), merchantRef: 'order 1' }), /^merchantRef/],
    ['merchantRef too long', () => ({ ...base(), merchantRef: 'a'.repeat(65) }), /^merchantRef/],
    ['description too long', () => ({ ...base(), description: 'x'.repeat(141) }), /^description/],
    ['description not a string', () => ({ ...base(), description: 5 }), /^description/],
    ['metadata an array', () => ({ ...base(), metadata: [1, 2] }), /^metadata/],
    ['metadata over 4 KiB', () => ({ ...base(), metadata: { blob: 'x'.repeat(5000) } }), /^metadata/],
    ['an unknown field', () => ({ ...base(), currency: 'USD' }), /currency/],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const res = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body: body() });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('VALIDATION_ERROR');
    expect(res.json.error.message).toMatch(message);
  });

  it('malformed JSON', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, rawBody: '{"amount": "1.00",' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/not valid JSON/) });
  });
  it('a JSON body that is not an object', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, rawBody: '[1,2]' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/JSON object/);
  });
  it('a body that is not JSON', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, {
      creds: services.creds,
      rawBody: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/Content-Type/);
  });
  it('a body over 16 KiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, {
      creds: services.creds,
      rawBody: JSON.stringify({ ...base(), description: 'x'.repeat(17 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
  it('a wrong method', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
  it('nothing was created by any rejected request', async () => {
    const list = await api(services.sandbox.baseUrl, '/dashboard/api/transactions');
    expect(list.json.data.filter((t: { callbackUrl: string }) => t.callbackUrl === `${services.receiver.url}/v`)).toEqual([]);
  });
});

describe('initialize: answers and idempotent merchantRef', () => {
  it('202 with the pending transaction', async () => {
    const res = await api(services.sandbox.baseUrl, INIT, {
      creds: services.creds,
      body: paymentBody(`${services.receiver.url}/ok`, '233241234567', { merchantRef: 'ORD-202', metadata: { till: 'T1' } }),
    });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({
      data: {
        reference: expect.stringMatching(/^TX_/),
        clientReference: 'ORD-202',
        status: 'PENDING',
        amount: '12.50',
        currency: 'GHS',
        customer: { msisdn: '233241234567', network: 'MTN' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
  });

  it('the same merchantRef and body: 200 with the original transaction, nobody prompted again', async () => {
    const body = paymentBody(`${services.receiver.url}/idem`, '233241234567', { merchantRef: 'ORD-IDEM', metadata: { a: 1, b: [1, 2] } });
    const first = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body });
    expect(first.status).toBe(202);
    // same content, keys in another order
    const reordered = {
      metadata: { b: [1, 2], a: 1 },
      merchantRef: 'ORD-IDEM',
      customer: body.customer,
      callbackUrl: body.callbackUrl,
      description: body.description,
      amount: body.amount,
    };
    const second = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body: reordered });
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first.json);
    await waitFor(() => services.receiver.on('/idem').length === 1, 5_000, 'the webhook');
    await sleep(200);
    const third = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body });
    expect(third.status).toBe(200);
    expect(third.json.data.reference).toBe(first.json.data.reference);
    await sleep(200);
    // no second prompt: every webhook on this path is the one transaction's (retried at most, never another)
    expect(new Set(services.receiver.on('/idem').map((h) => JSON.parse(h.raw.toString('utf8')).data.reference))).toEqual(
      new Set([first.json.data.reference]),
    );
    const txs = (await api(services.sandbox.baseUrl, '/dashboard/api/transactions')).json.data.filter(
      (t: { clientReference: string }) => t.clientReference === 'ORD-IDEM',
    );
    expect(txs).toHaveLength(1);
  });

  it('the same merchantRef with a different body: 409 DUPLICATE_REFERENCE', async () => {
    const body = paymentBody(`${services.receiver.url}/dup`, '233241234567', { merchantRef: 'ORD-DUP' });
    expect((await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body })).status).toBe(202);
    const res = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body: { ...body, amount: '13.00' } });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'DUPLICATE_REFERENCE', message: expect.stringContaining('ORD-DUP') });
  });

  it('merchantRef idempotency is per environment: the live key may reuse a test ref', async () => {
    const body = paymentBody(`${services.receiver.url}/env`, '233241234567', { merchantRef: 'ORD-ENV' });
    const test = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body });
    const live = await api(services.sandbox.baseUrl, INIT, {
      creds: { merchantId: services.sandbox.merchantId, secret: services.sandbox.keys.live.secret },
      body,
    });
    expect([test.status, live.status]).toEqual([202, 202]);
    expect(live.json.data.reference).not.toBe(test.json.data.reference);
  });

  it('without merchantRef every request is a new payment', async () => {
    const body = paymentBody(`${services.receiver.url}/noref`);
    const a = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body });
    const b = await api(services.sandbox.baseUrl, INIT, { creds: services.creds, body });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.json.data.clientReference).toBeNull();
    expect(a.json.data.reference).not.toBe(b.json.data.reference);
  });

  it('an unknown /v1 path after authentication is 404 NOT_FOUND', async () => {
    const res = await api(services.sandbox.baseUrl, '/v1/payments/nope', { creds: services.creds });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /v1/accounts/resolve', () => {
  const resolve = (q: string) => api(services.sandbox.baseUrl, `/v1/accounts/resolve?${q}`, { creds: services.creds });

  it('answers a deterministic name and the normalised number', async () => {
    const a = await resolve('msisdn=233241234567&network=MTN');
    const b = await resolve('msisdn=0241234567&network=MTN');
    expect(a.status).toBe(200);
    expect(a.json).toEqual({ data: { msisdn: '233241234567', network: 'MTN', name: expect.any(String) } });
    expect(b.json).toEqual(a.json);
  });
  it('numbers ending in 99 are 404 ACCOUNT_NOT_FOUND', async () => {
    const res = await resolve('msisdn=233241234599&network=MTN');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('ACCOUNT_NOT_FOUND');
  });
  it.each([
    ['network=MTN', /^msisdn is required/],
    ['msisdn=12345&network=MTN', /^msisdn: /],
    ['msisdn=233241234567', /^network is required/],
    ['msisdn=233241234567&network=VODA', /^network: /],
  ])('400 for %s', async (q, message) => {
    const res = await resolve(q);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(message) });
  });
  it('works with the live key too', async () => {
    const res = await api(services.sandbox.baseUrl, '/v1/accounts/resolve?msisdn=233201234567&network=TELECEL', {
      creds: { merchantId: services.sandbox.merchantId, secret: services.sandbox.keys.live.secret },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.network).toBe('TELECEL');
  });
  it('the dashboard shows the name resolved at initialize (the webhook never carries it: see outcomes.test.ts)', async () => {
    const t = (await api(services.sandbox.baseUrl, '/dashboard/api/transactions')).json.data[0];
    const resolved = await resolve(`msisdn=${t.msisdn}&network=MTN`);
    expect(t.customerName).toBe(resolved.json.data.name);
  });
});
