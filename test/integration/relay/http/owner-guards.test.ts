/**
 * What stands before a viewer token on both stores, over real HTTP: a guesser is refused (429 with
 * Retry-After) before the store is asked, per client, and per forwarded client only behind a configured
 * proxy; the sign-in takes only JSON that this site started; every answer says nosniff; a merchant's pages
 * and links are held to its share.
 */
import { afterEach, expect, it } from 'vitest';
import { get, post, SseClient } from '../helpers.js';
import { openPage } from '../owner-page.js';
import { describeEachStore, type StartedRelay } from '../stores.js';

/** POST /v1/owner/session with these headers (JSON unless told otherwise). */
const signIn = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/owner/session`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** A page's stream asked for once: the refusal's answer, or (status 200) the stream, closed at once. */
async function streamAnswer(url: string, cookie: string): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const res = await fetch(`${url}/v1/owner/stream?after=0`, { headers: { cookie } });
  const body = res.status === 200 ? (await res.body?.cancel(), '') : await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body };
}

const wrong = (i: number) => JSON.stringify({ token: `ov_${String(i).padStart(43, 'x')}` });

async function makeLink(url: string, tillToken: string): Promise<string> {
  const res = await post(`${url}/v1/owner-links`, JSON.stringify({ label: 'Phone', environment: 'live' }), {
    authorization: `Bearer ${tillToken}`,
  });
  expect(res.status).toBe(201);
  return (res.json as { token: string }).token;
}

describeEachStore('owner link guards', (store) => {
  let started: StartedRelay | null = null;
  afterEach(async () => {
    await started?.cleanup();
    started = null;
  });

  it('a client trying wrong tokens is refused with 429 and Retry-After; a phone already in still reads', async () => {
    started = await store.start();
    const { relay, token } = started;
    const good = await makeLink(relay.url, token);
    const opened = await signIn(relay.url, JSON.stringify({ token: good }));
    expect(opened.status).toBe(200);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await signIn(relay.url, wrong(i))).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10).every((c) => c === 429)).toBe(true);
    const refused = await signIn(relay.url, wrong(99));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Wrong cookies count as guesses too.
    expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: `momo_owner=od_${'C'.repeat(43)}` })).status).toBe(429);
    // X-Forwarded-For from a peer that is no configured proxy names no other client: still this one.
    expect((await signIn(relay.url, wrong(100), { 'x-forwarded-for': '198.51.100.9' })).status).toBe(429);
    // A phone this relay knows is no guess: it still reads from the same client.
    expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie })).status).toBe(200);
  });

  it("holds a link's and a merchant's page streams to their shares (429, the pool never reached) and the merchant's links to its count (409)", async () => {
    const settings = { maxOwnerStreamsPerLink: 2, maxOwnerStreamsPerMerchant: 3, maxOwnerStreams: 4, maxOwnerLinksPerMerchant: 3 };
    started = await store.start({ settings });
    const { relay, token } = started;
    const streams: SseClient[] = [];
    try {
      const first = await openPage(relay.url, token, 'Phone 1');
      streams.push(first.sse);
      const again = () => SseClient.connect(`${relay.url}/v1/owner/stream?after=0`, undefined, { cookie: first.cookie });
      streams.push(await again());
      const linkFull = await streamAnswer(relay.url, first.cookie);
      expect(linkFull.status).toBe(429);
      expect(linkFull.retryAfter).toBe('10');
      expect(linkFull.body).toMatch(/maxOwnerStreamsPerLink 2/);
      const second = await openPage(relay.url, token, 'Phone 2');
      streams.push(second.sse);
      expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
      // The merchant holds 3 of the instance's 4: its next page is refused by its share, not by the pool.
      const merchantFull = await streamAnswer(relay.url, second.cookie);
      expect(merchantFull.status).toBe(429);
      expect(merchantFull.body).toMatch(/maxOwnerStreamsPerMerchant 3/);
      // Links: two on, a third allowed, then 409 naming the limit; turning one off makes room.
      const third = await post(`${relay.url}/v1/owner-links`, JSON.stringify({ label: 'Phone 3', environment: 'live' }), {
        authorization: `Bearer ${token}`,
      });
      expect(third.status).toBe(201);
      const fourth = () =>
        post(`${relay.url}/v1/owner-links`, JSON.stringify({ label: 'Phone 4', environment: 'live' }), {
          authorization: `Bearer ${token}`,
        });
      const refused = await Promise.all([fourth(), fourth()]);
      expect(refused.map((r) => r.status)).toEqual([409, 409]);
      expect(refused[0]!.body).toMatch(/maxOwnerLinksPerMerchant 3/);
      const off = await fetch(`${relay.url}/v1/owner-links/${second.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(off.status).toBe(204);
      expect((await fourth()).status).toBe(201);
      // A link counts while a phone is in or its invitation is open: the third's, left to expire unused, frees its
      // place; the first's phone keeps it counted when a new invitation for it expires unused too.
      const thirdId = (third.json as { link: { id: string } }).link.id;
      const invited = await post(`${relay.url}/v1/owner-links/${first.id}/invitation`, '', { authorization: `Bearer ${token}` });
      expect(invited.status).toBe(201);
      await started.sql(`UPDATE owner_links SET invite_expires_at = '2000-01-01T00:00:00.000Z' WHERE id IN ('${thirdId}', '${first.id}')`);
      expect((await fourth()).status).toBe(201);
      expect((await fourth()).status).toBe(409);
      expect(relay.metrics.shareRefusals.get({ limit: 'maxOwnerLinksPerMerchant' })).toBe(3);
    } finally {
      for (const s of streams) s.close();
    }
  });

  it("a new invitation for a link that no longer counts is held to the merchant's count (409), one for a link on is not", async () => {
    let clock = Date.parse('2026-03-02T09:00:00.000Z');
    started = await store.start({ settings: { maxOwnerLinksPerMerchant: 2 }, now: () => clock });
    const { relay, token } = started;
    const auth = { authorization: `Bearer ${token}` };
    const make = async (label: string) => {
      const res = await post(`${relay.url}/v1/owner-links`, JSON.stringify({ label, environment: 'live' }), auth);
      expect(res.status).toBe(201);
      return (res.json as { link: { id: string; invitation: { expiresAt: string } } }).link;
    };
    const reinvite = (id: string) => post(`${relay.url}/v1/owner-links/${id}/invitation`, '', auth);
    const invitationOf = async (id: string) => {
      const links = (await get(`${relay.url}/v1/owner-links`, token)).json as { links: Array<{ id: string; invitation: unknown }> };
      return links.links.find((l) => l.id === id)?.invitation;
    };
    // A's invitation expires unused: A no longer counts, so B and C fill the merchant's 2.
    const a = await make('Phone A');
    clock += 16 * 60_000;
    const b = await make('Phone B');
    const c = await make('Phone C');
    const refused = await reinvite(a.id);
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({
      error: {
        code: 'CONFLICT',
        message: 'This shop already has 2 phone links on (maxOwnerLinksPerMerchant 2): turn one off in Settings first',
      },
    });
    expect(await invitationOf(a.id)).toEqual({ expiresAt: a.invitation.expiresAt, usedAt: null });
    expect(relay.metrics.shareRefusals.get({ limit: 'maxOwnerLinksPerMerchant' })).toBe(1);
    const metrics = await (await fetch(`${relay.adminUrl}/metrics`)).text();
    expect(metrics).toMatch(/relay_merchant_owner_refusals_total\{[^}]*reason="links_full"[^}]*\} 1\n/);
    // B counts already (its invitation is open): a new one for it adds nothing, so it is made at the limit.
    const again = await reinvite(b.id);
    expect(again.status).toBe(201);
    expect(await invitationOf(b.id)).toEqual({ expiresAt: (again.json as { expiresAt: string }).expiresAt, usedAt: null });
    // Turning C off makes room for A.
    expect((await fetch(`${relay.url}/v1/owner-links/${c.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    expect((await reinvite(a.id)).status).toBe(201);
    expect((await reinvite(c.id)).status).toBe(404);
  });

  it("holds a link's phones and a client's unknown credentials to the instance's settings: 429 naming each, Retry-After from its rate, shown in /metrics", async () => {
    const settings = {
      ownerPageRequestBurstPerLink: 3,
      ownerPageRequestsPerSecondPerLink: 0.25,
      ownerUnknownCredentialBurstPerClient: 2,
      ownerUnknownCredentialsPerSecondPerClient: 0.05,
    };
    // A clock that stands still: nothing refills, so each wait is exactly one request's worth of its rate.
    const clock = Date.parse('2026-03-02T09:00:00.000Z');
    started = await store.start({ settings, now: () => clock });
    const { relay, token } = started;
    const opened = await signIn(relay.url, JSON.stringify({ token: await makeLink(relay.url, token) }));
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const reads: Response[] = [];
    for (let i = 0; i < 4; i++) reads.push(await fetch(`${relay.url}/v1/owner/summary`, { headers: { cookie } }));
    expect(reads.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const linkRefused = reads[3] as Response;
    expect(linkRefused.headers.get('retry-after'), '1 / 0.25 a second').toBe('4');
    expect(await linkRefused.text()).toMatch(/ownerPageRequestsPerSecondPerLink 0\.25 after ownerPageRequestBurstPerLink 3/);
    const guesses = [await signIn(relay.url, wrong(1)), await signIn(relay.url, wrong(2)), await signIn(relay.url, wrong(3))];
    expect(guesses.map((r) => r.status)).toEqual([401, 401, 429]);
    const guessRefused = guesses[2] as Response;
    expect(guessRefused.headers.get('retry-after'), '1 / 0.05 a second').toBe('20');
    expect(await guessRefused.text()).toMatch(
      /ownerUnknownCredentialsPerSecondPerClient 0\.05 after ownerUnknownCredentialBurstPerClient 2/,
    );
    const metrics = await (await fetch(`${relay.adminUrl}/metrics`)).text();
    for (const line of [
      'relay_limit{limit="ownerPageRequestBurstPerLink"} 3',
      'relay_limit{limit="ownerPageRequestsPerSecondPerLink"} 0.25',
      'relay_limit{limit="ownerUnknownCredentialBurstPerClient"} 2',
      'relay_limit{limit="ownerUnknownCredentialsPerSecondPerClient"} 0.05',
      'relay_limit{limit="ownerUnknownCredentialsPerSecond"} 200',
      'relay_share_refusals_total{limit="ownerPageRequestsPerSecondPerLink"} 1',
      'relay_client_limited_total{limit="ownerUnknownCredentialsPerSecondPerClient"} 1',
    ])
      expect(metrics).toContain(`${line}\n`);
  });

  it('behind a configured proxy each forwarded client has its own limit; a spoofed left-most entry changes nothing', async () => {
    started = await store.start({ settings: { trustedProxies: ['127.0.0.1', '::1'] } });
    const { relay } = started;
    const from = (xff: string, i: number) => signIn(relay.url, wrong(i), { 'x-forwarded-for': xff }).then((r) => r.status);
    const a: number[] = [];
    for (let i = 0; i < 12; i++) a.push(await from(`${i}.0.0.1, 203.0.113.7`, i));
    expect(a.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(a.slice(10)).toEqual([429, 429]);
    expect(await from('203.0.113.8', 50)).toBe(401);
  });

  it('the sign-in takes only application/json, and refuses what another site started', async () => {
    started = await store.start();
    const { relay, token } = started;
    const good = await makeLink(relay.url, token);
    const body = JSON.stringify({ token: good });
    const host = new URL(relay.url).host;
    const tried = async (headers: Record<string, string>) => {
      const res = await signIn(relay.url, body, headers);
      return { status: res.status, cookie: res.headers.get('set-cookie') ?? undefined };
    };
    expect(await tried({ 'content-type': 'text/plain' })).toMatchObject({ status: 415, cookie: undefined });
    expect(await tried({ 'content-type': 'application/x-www-form-urlencoded' })).toMatchObject({ status: 415, cookie: undefined });
    expect(await tried({ 'sec-fetch-site': 'cross-site' })).toMatchObject({ status: 403, cookie: undefined });
    expect(await tried({ 'sec-fetch-site': 'same-site' })).toMatchObject({ status: 403, cookie: undefined });
    expect(await tried({ origin: 'https://evil.example' })).toMatchObject({ status: 403, cookie: undefined });
    expect(await tried({ origin: 'null' })).toMatchObject({ status: 403, cookie: undefined });
    expect((await tried({ 'sec-fetch-site': 'same-origin', origin: `http://${host}` })).status).toBe(200);
    const another = JSON.stringify({ token: await makeLink(relay.url, token) });
    expect((await signIn(relay.url, another, { origin: `http://${host}` })).status).toBe(200);
  });

  it('every answer says nosniff; the page carries its security headers', async () => {
    started = await store.start();
    const { relay, token } = started;
    const answers = [
      await fetch(`${relay.url}/healthz`),
      await fetch(`${relay.url}/nothing-here`),
      await fetch(`${relay.url}/v1/owner/summary`),
      await fetch(`${relay.url}/v1/owner-links`, { headers: { authorization: `Bearer ${token}` } }),
      await fetch(`${relay.url}/metrics`),
      await fetch(`${relay.url}/owner`),
    ];
    for (const res of answers) expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
    for (const path of ['/owner', '/owner/app.js', '/owner/app.css']) {
      const page = await fetch(`${relay.url}${path}`);
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
