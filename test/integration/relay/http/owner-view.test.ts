/**
 * The owner's phone view on both stores, over real HTTP. A till makes a link with its till
 * token; the page trades the token for a cookie; the figures come from the summary the commit keeps;
 * the stream carries new results of the link's environment only; a link turned off ends its page.
 */
import { afterEach, expect, it } from 'vitest';
import { localDate } from '../../../../shared/local-date.js';
import { deliver, get, LIVE_KEY, post, SseClient, TEST_KEY, transaction } from '../helpers.js';
import { describeEachStore, type StartedRelay } from '../stores.js';

type Link = { link: { id: string; environment: string }; token: string; path: string };

async function makeLink(url: string, tillToken: string, body: Record<string, unknown>): Promise<Link> {
  const res = await post(`${url}/v1/owner-links`, JSON.stringify(body), { authorization: `Bearer ${tillToken}` });
  expect(res.status).toBe(201);
  return res.json as Link;
}

async function session(url: string, token: string): Promise<string> {
  const res = await fetch(`${url}/v1/owner/session`, {
    method: 'POST',
    body: JSON.stringify({ token }),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  expect(cookie).toMatch(/Path=\/v1\/owner/);
  return cookie.split(';')[0] as string;
}

const now = () => new Date().toISOString();
const meta = (till: string, cashier: string) => ({ till: `id-${till}`, tillName: till, cashierId: `c-${cashier}`, cashier });

describeEachStore('owner view', (store) => {
  let started: StartedRelay | null = null;
  const logs: string[] = [];
  afterEach(async () => {
    await started?.cleanup();
    started = null;
    logs.length = 0;
  });
  const start = async (settings = {}) => {
    started = await store.start({ settings, log: (l) => logs.push(JSON.stringify(l)) });
    return started;
  };

  it('a till makes, lists and refuses bad links; no till token, no link', async () => {
    const { relay, token } = await start();
    const made = await makeLink(relay.url, token, { label: "Auntie Efua's phone", environment: 'live' });
    expect(made.token).toMatch(/^ov_[A-Za-z0-9_-]{43}$/);
    expect(made.path).toBe(`/owner#t=${made.token}`);
    const list = await get(`${relay.url}/v1/owner-links`, token);
    expect(list.json).toMatchObject({ links: [{ id: made.link.id, label: "Auntie Efua's phone", environment: 'live', revokedAt: null }] });
    expect(list.body).not.toContain(made.token);
    expect((await post(`${relay.url}/v1/owner-links`, '{"label":"x","environment":"live"}', {})).status).toBe(401);
    const bad = await post(`${relay.url}/v1/owner-links`, '{"label":"  ","environment":"live"}', { authorization: `Bearer ${token}` });
    expect(bad.status).toBe(400);
    const zone = await post(`${relay.url}/v1/owner-links`, '{"label":"a","environment":"live","timeZone":"Mars/Base"}', {
      authorization: `Bearer ${token}`,
    });
    expect(zone.status).toBe(400);
    // A NUL and a lone surrogate, which neither store keeps as sent, are stored neutralised (a space, U+FFFD);
    // the same request again is answered alike, and the list says what the answers said.
    const odd = '{"label":"Efua\\u0000phone \\ud800","environment":"live"}';
    const answers = [];
    for (let i = 0; i < 2; i++) {
      const res = await post(`${relay.url}/v1/owner-links`, odd, { authorization: `Bearer ${token}` });
      const link = (res.json as { link?: { id: string; label: string } }).link;
      answers.push({ status: res.status, label: link?.label, id: link?.id });
    }
    expect(answers.map(({ status, label }) => ({ status, label }))).toEqual([
      { status: 201, label: 'Efua phone \ufffd' },
      { status: 201, label: 'Efua phone \ufffd' },
    ]);
    const links = ((await get(`${relay.url}/v1/owner-links`, token)).json as { links: Array<{ id: string; label: string }> }).links;
    expect(answers.map((a) => links.find((l) => l.id === a.id)?.label)).toEqual(['Efua phone \ufffd', 'Efua phone \ufffd']);
    // A viewer token is no till token: the till API refuses it.
    expect((await get(`${relay.url}/v1/transactions`, made.token)).status).toBe(401);
    expect(logs.join('\n')).not.toContain(made.token);
  });

  it("today's figures by till, cashier and network, one environment only, each event counted once", async () => {
    const { relay, token } = await start();
    const live = await makeLink(relay.url, token, { label: 'Phone', environment: 'live' });
    const test = await makeLink(relay.url, token, { label: 'Test phone', environment: 'test' });
    const a = transaction('live', { completedAt: now(), metadata: meta('Front', 'Ama') });
    expect((await deliver(relay.url, a, LIVE_KEY)).status).toBe(200);
    expect((await deliver(relay.url, a, LIVE_KEY)).status).toBe(200); // a repeat: never counted twice
    const b = transaction('live', { completedAt: now(), amount: '100.00', fee: '1.00', net: '99.00', metadata: meta('Back', 'Kofi') });
    expect((await deliver(relay.url, b, LIVE_KEY)).status).toBe(200);
    const failed = transaction('live', { completedAt: now(), status: 'FAILED', fee: '0.00', net: '0.00', metadata: meta('Front', 'Ama') });
    expect((await deliver(relay.url, failed, LIVE_KEY)).status).toBe(200);
    expect(
      (await deliver(relay.url, transaction('test', { completedAt: now(), amount: '7.00', fee: '0.00', net: '7.00' }), TEST_KEY)).status,
    ).toBe(200);

    const cookie = await session(relay.url, live.token);
    const summary = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie });
    expect(summary.status).toBe(200);
    const s = summary.json as {
      today: string;
      day: {
        totals: Record<string, number | null>;
        byTill: Array<{ name: string; gross: number }>;
        byCashier: unknown[];
        byNetwork: unknown[];
      };
      latest: Array<{ number: string; amount: number; status: string; till: string; cashier: string }>;
    };
    expect(s.today).toBe(localDate(Date.now(), 'Africa/Accra'));
    expect(s.day.totals).toMatchObject({ succeeded: 2, failed: 1, count: 3, gross: 11250, fees: 124, net: 11126, successRate: 66.7 });
    expect(s.day.byTill).toEqual([
      expect.objectContaining({ name: 'Back', gross: 10000 }),
      expect.objectContaining({ name: 'Front', gross: 1250, succeeded: 1, failed: 1 }),
    ]);
    expect(s.day.byCashier).toHaveLength(2);
    expect(s.day.byNetwork).toEqual([expect.objectContaining({ name: 'MTN', gross: 11250 })]);
    expect(s.latest).toHaveLength(3);
    expect(s.latest[0]).toMatchObject({ number: '024 *** 4567', status: 'FAILED', till: 'Front', cashier: 'Ama' });
    expect(JSON.stringify(s.latest)).not.toContain('233241234567');

    const testCookie = await session(relay.url, test.token);
    const t = (await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: testCookie })).json as typeof s;
    expect(t.day.totals).toMatchObject({ succeeded: 1, gross: 700 });
    expect(t.latest.every((p) => p.amount === 700)).toBe(true);

    const days = (await get(`${relay.url}/v1/owner/days`, undefined, { cookie })).json as { days: Array<{ date: string; gross: number }> };
    expect(days.days).toHaveLength(30);
    expect(days.days[29]).toMatchObject({ date: s.today, gross: 11250 });
    expect(days.days.slice(0, 29).every((d) => d.gross === 0)).toBe(true);
    // An earlier day, on request; a day after today is refused.
    const earlier = await get(`${relay.url}/v1/owner/summary?date=2026-01-05`, undefined, { cookie });
    expect(earlier.json).toMatchObject({ day: { date: '2026-01-05', totals: { count: 0 } }, latest: [] });
    expect((await get(`${relay.url}/v1/owner/summary?date=2999-01-01`, undefined, { cookie })).status).toBe(400);
  });

  it('streams new results of its environment only, catches up after Last-Event-ID, and ends when the link is turned off', async () => {
    const { relay, token } = await start();
    const live = await makeLink(relay.url, token, { label: 'Phone', environment: 'live' });
    const cookie = await session(relay.url, live.token);
    const sse = await SseClient.connect(`${relay.url}/v1/owner/stream?after=0`, undefined, { cookie });
    expect(sse.status).toBe(200);
    await deliver(relay.url, transaction('test', { completedAt: now() }), TEST_KEY);
    const sent = Date.now();
    await deliver(relay.url, transaction('live', { completedAt: now(), description: 'Rice\u202e evil' }), LIVE_KEY);
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'payment'), 3000);
    expect(Date.now() - sent).toBeLessThan(1000);
    const payments = sse.messages.filter((m) => m.event === 'payment');
    expect(payments).toHaveLength(1);
    const p = JSON.parse(payments[0]!.data) as { seq: number; description: string; number: string };
    expect(p.description).toBe('Rice evil');
    expect(payments[0]!.id).toBe(String(p.seq));
    sse.close();

    // Reconnecting with Last-Event-ID gets only what came after.
    await deliver(relay.url, transaction('live', { completedAt: now() }), LIVE_KEY);
    const again = await SseClient.connect(`${relay.url}/v1/owner/stream`, undefined, { cookie, 'last-event-id': String(p.seq) });
    await again.waitFor((c) => c.messages.filter((m) => m.event === 'payment').length === 1, 3000);

    const off = await fetch(`${relay.url}/v1/owner-links/${live.link.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(off.status).toBe(204);
    await again.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 3000);
    expect(again.messages.find((m) => m.event === 'revoked')?.data).toContain('This link was turned off by the shop owner');
    const after = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ error: { message: 'This link was turned off by the shop owner', revoked: true } });
    const listed = (await get(`${relay.url}/v1/owner-links`, token)).json as { links: Array<{ revokedAt: string | null }> };
    expect(listed.links[0]!.revokedAt).not.toBeNull();
  });

  it("the till moves every link of the merchant to the shop's new time zone (PATCH); the page counts days in it", async () => {
    const { relay, token } = await start();
    const live = await makeLink(relay.url, token, { label: 'Phone', environment: 'live' });
    await makeLink(relay.url, token, { label: 'Test phone', environment: 'test', timeZone: 'Europe/London' });
    const cookie = await session(relay.url, live.token);
    const patch = (body: string, auth = token) =>
      fetch(`${relay.url}/v1/owner-links`, { method: 'PATCH', body, headers: { authorization: `Bearer ${auth}` } });
    const moved = await patch('{"timeZone":"Pacific/Kiritimati"}');
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ timeZone: 'Pacific/Kiritimati', changed: 2 });
    const listed = (await get(`${relay.url}/v1/owner-links`, token)).json as { links: Array<{ timeZone: string }> };
    expect(listed.links.map((l) => l.timeZone)).toEqual(['Pacific/Kiritimati', 'Pacific/Kiritimati']);
    const s = (await get(`${relay.url}/v1/owner/summary`, undefined, { cookie })).json as { today: string; link: { timeZone: string } };
    expect(s).toMatchObject({ today: localDate(Date.now(), 'Pacific/Kiritimati'), link: { timeZone: 'Pacific/Kiritimati' } });
    expect((await patch('{"timeZone":"Mars/Base"}')).status).toBe(400);
    expect((await patch('{"timeZone":"Africa/Accra","extra":1}')).status).toBe(400);
    expect((await patch('{"timeZone":"Africa/Accra"}', `rt_${'A'.repeat(43)}`)).status).toBe(401);
  });

  it('rate-limits a link, and serves its page with a strict policy', async () => {
    const { relay, token } = await start();
    const live = await makeLink(relay.url, token, { label: 'Phone', environment: 'live' });
    const cookie = await session(relay.url, live.token);
    const codes: number[] = [];
    for (let i = 0; i < 40; i++) codes.push((await get(`${relay.url}/v1/owner/days`, undefined, { cookie })).status);
    expect(codes).toContain(429);
    const page = await fetch(`${relay.url}/owner`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*src=)/);
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${relay.url}/owner/app.js`)).headers.get('content-type')).toMatch(/javascript/);
  });
});

describeEachStore('owner view refusals', (store) => {
  it('refuses a page without a valid link, and an unknown token, saying so', async () => {
    const { relay, cleanup } = await store.start();
    try {
      for (const path of ['/v1/owner/summary', '/v1/owner/days', '/v1/owner/stream']) {
        expect((await get(`${relay.url}${path}`)).status).toBe(401);
        expect((await get(`${relay.url}${path}`, undefined, { cookie: `momo_owner=ov_${'A'.repeat(43)}` })).status).toBe(401);
      }
      const res = await post(`${relay.url}/v1/owner/session`, JSON.stringify({ token: `ov_${'B'.repeat(43)}` }), {});
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ error: { code: 'UNAUTHENTICATED', revoked: false } });
      expect((await post(`${relay.url}/v1/owner/session`, 'not json', {})).status).toBe(401);
      expect((await fetch(`${relay.url}/v1/owner-links/nonsense`, { method: 'DELETE' })).status).toBe(404);
    } finally {
      await cleanup();
    }
  });
});
