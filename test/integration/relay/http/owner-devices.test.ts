/**
 * The owner's link is a one-time invitation, on both stores over real HTTP: the first phone to hand it
 * over gets its own device credential (a cookie; only hashes are stored), a second use opens nothing and
 * says why, an invitation expires, the till lists each link's phones and turns one off, and the credential
 * slides. Only hashes of tokens, invitations and phone credentials are stored (SQLite's file, every
 * PostgreSQL table). Revoking the till token that made a link, as the operator does (`momo-relay token
 * revoke`), ends the link, its open page and its phones.
 */
import { afterEach, expect, it } from 'vitest';
import { hashRelayToken } from '../../../../relay/ops/index.js';
import { get, post, SseClient } from '../helpers.js';
import { describeEachStore, type StartedRelay } from '../stores.js';

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const USED = 'This link was already used on a phone. Ask the till for a new one.';

type Made = { link: { id: string }; token: string; expiresAt: string };

async function makeLink(url: string, tillToken: string): Promise<Made> {
  const res = await post(`${url}/v1/owner-links`, JSON.stringify({ label: 'Owner', environment: 'live' }), {
    authorization: `Bearer ${tillToken}`,
  });
  expect(res.status).toBe(201);
  return res.json as Made;
}

/** The exchange as the page makes it: the status, the message, and the cookie it set (name=value). */
async function exchange(url: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/owner/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { status: res.status, message: body.error?.message, setCookie, cookie: setCookie.split(';')[0] as string };
}

type Listed = {
  links: Array<{
    id: string;
    revokedAt: string | null;
    devices: Array<{ id: string; name: string; lastSeenAt: string; revokedAt: string | null }>;
  }>;
};

describeEachStore('owner phones', (store) => {
  let started: StartedRelay | null = null;
  afterEach(async () => {
    await started?.cleanup();
    started = null;
  });

  it('a link opens one phone once; a second use says so; the till lists and turns off each phone', async () => {
    started = await store.start();
    const { relay, token } = started;
    const made = await makeLink(relay.url, token);
    const first = await exchange(relay.url, made.token, { 'user-agent': ANDROID });
    expect(first.status).toBe(200);
    expect(first.cookie).toMatch(/^momo_owner=od_[A-Za-z0-9_-]{43}$/);
    expect(first.setCookie).toMatch(/HttpOnly/);
    expect(first.setCookie).toMatch(/SameSite=Strict/);
    expect(first.setCookie).toMatch(/Path=\/v1\/owner;/);
    expect(first.setCookie).toMatch(/Max-Age=2592000/);
    // From history, a screenshot or a forwarded message: spent.
    expect(await exchange(relay.url, made.token)).toMatchObject({ status: 401, message: USED, setCookie: '' });
    // The invitation itself is no credential.
    expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: `momo_owner=${made.token}` })).status).toBe(401);
    // The same phone scanning again is simply in.
    expect((await exchange(relay.url, made.token, { cookie: first.cookie })).status).toBe(200);
    const read = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: first.cookie });
    expect(read.status).toBe(200);

    // Another phone for the same link: a new invitation from the till.
    const invited = await post(`${relay.url}/v1/owner-links/${made.link.id}/invitation`, '', { authorization: `Bearer ${token}` });
    expect(invited.status).toBe(201);
    const second = await exchange(relay.url, (invited.json as Made).token, { 'user-agent': IPHONE });
    expect(second.status).toBe(200);
    const listed = (await get(`${relay.url}/v1/owner-links`, token)).json as Listed;
    const devices = listed.links[0]?.devices ?? [];
    expect(devices.map((d) => d.name)).toEqual(['Android phone · Chrome', 'iPhone · Safari']);
    expect(JSON.stringify(listed)).not.toMatch(/od_[A-Za-z0-9_-]{43}|ov_|sha256/);

    const sse = await SseClient.connect(`${relay.url}/v1/owner/stream?after=0`, undefined, { cookie: first.cookie });
    const off = await fetch(`${relay.url}/v1/owner-links/${made.link.id}/devices/${devices[0]?.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(off.status).toBe(204);
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'));
    const refused = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: first.cookie });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain('This phone was turned off at the till');
    expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: second.cookie })).status).toBe(200);
    const after = (await get(`${relay.url}/v1/owner-links`, token)).json as Listed;
    expect(after.links[0]?.devices.map((d) => d.revokedAt !== null)).toEqual([true, false]);
  });

  it('an invitation expires after 15 minutes; a phone credential slides for 30 days from its last use', async () => {
    let clock = Date.parse('2026-11-20T10:00:00Z');
    started = await store.start({ now: () => clock });
    const { relay, token } = started;
    const late = await makeLink(relay.url, token);
    expect(late.expiresAt).toBe('2026-11-20T10:15:00.000Z');
    const inTime = await makeLink(relay.url, token);
    clock += 15 * 60_000;
    const expired = await exchange(relay.url, late.token);
    expect(expired).toMatchObject({ status: 401, setCookie: '' });
    expect(expired.message).toMatch(/expired.*Ask the till for a new one/);
    clock -= 1;
    const phone = await exchange(relay.url, inTime.token);
    expect(phone.status).toBe(200);
    // Used every 20 days, it stays in; unused for 30 days, it is out. The page's use is written after its answer
    // (it never holds the page back): wait until it is, as 20 days would, before moving the clock on.
    const lastSeen = async () =>
      ((await get(`${relay.url}/v1/owner-links`, token)).json as Listed).links.flatMap((l) => l.devices).map((d) => d.lastSeenAt);
    for (let i = 0; i < 3; i++) {
      clock += 20 * 86_400_000;
      expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: phone.cookie })).status).toBe(200);
      await expect.poll(lastSeen).toEqual([new Date(clock).toISOString()]);
    }
    clock += 30 * 86_400_000 + 2_000;
    const stale = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: phone.cookie });
    expect(stale.status).toBe(401);
    expect(stale.body).toContain('has not opened the page for 30 days');
  });

  it('only hashes are stored; the operator revoking a till token (momo-relay token revoke) ends the links it made and their phones', async () => {
    started = await store.start();
    const { relay, token: front } = started;
    const back = await started.tills.create('back-office');
    await expect.poll(async () => (await get(`${relay.url}/v1/owner-links`, back)).status, { timeout: 10_000 }).toBe(200);
    const byBack = await makeLink(relay.url, back);
    const byFront = await makeLink(relay.url, front);
    const phoneBack = await exchange(relay.url, byBack.token);
    const phoneFront = await exchange(relay.url, byFront.token);
    const again = (await post(`${relay.url}/v1/owner-links/${byFront.link.id}/invitation`, '', { authorization: `Bearer ${front}` }))
      .json as Made;
    const phoneAgain = await exchange(relay.url, again.token);
    const credentials = [phoneBack, phoneFront, phoneAgain].map((p) => p.cookie.slice('momo_owner='.length));
    for (const c of credentials) expect(c).toMatch(/^od_[A-Za-z0-9_-]{43}$/);

    const stored = await started.stored();
    for (const secret of [front, back, byBack.token, byFront.token, again.token, ...credentials]) expect(stored).not.toContain(secret);
    // What was read is where they live: their hashes (a link's new invitation replaces its earlier one's).
    for (const secret of [front, back, byBack.token, again.token, ...credentials]) expect(stored).toContain(hashRelayToken(secret));

    const pageBack = await SseClient.connect(`${relay.url}/v1/owner/stream?after=0`, undefined, { cookie: phoneBack.cookie });
    await started.tills.revoke('back-office');
    await pageBack.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 10_000);
    const refused = await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: phoneBack.cookie });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain("turned off by the relay's operator");
    expect((await exchange(relay.url, byBack.token)).status).toBe(401);
    for (const phone of [phoneFront, phoneAgain])
      expect((await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: phone.cookie })).status).toBe(200);
    const listed = (await get(`${relay.url}/v1/owner-links`, front)).json as Listed;
    expect(listed.links.find((l) => l.id === byBack.link.id)?.revokedAt).not.toBeNull();
    expect(listed.links.find((l) => l.id === byFront.link.id)?.revokedAt).toBeNull();
  });
});
