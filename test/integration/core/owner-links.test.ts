/**
 * The owner's phone links across the real parts: the owner makes a phone link at the till (the core asks its relay
 * with its till token); the "phone" opens it over real HTTP; a sandbox sale at the till appears on the
 * phone's stream and its figures match the till's Takings; a cashier cannot make, list or turn off a
 * link (FORBIDDEN); turning the link off at the till ends the open page. The shop's time zone changed
 * in Settings moves its links to it (told at once, or put right when the list is next opened). A link
 * that is on gets a new one-time invitation for another phone (the owner only); a link turned off gets none.
 */
import { describe, expect, it } from 'vitest';
import { msisdnEnding, PIN, startSale, waitForState } from './helpers.js';
import { get, SseClient } from '../relay/helpers.js';
import { localDate } from '../../../shared/local-date.js';
import { parseAmount } from '../../../shared/money.js';
import { useTill } from '../../support/till-fixture.js';

const fixture = useTill('owner-links', { connected: true, core: { tillName: 'Front counter', idleLockMs: 60 * 60_000 } });
const KOFI = '1357';
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'allowed',
    (e: { code: string }) => e.code,
  );

describe('takings on the owner’s phone', () => {
  it('the owner makes a link, the phone sees a sale live with the till’s figures, a cashier is refused, turning it off ends the page', async () => {
    const { core, services } = fixture;
    const made = await core.invoke('owner-links:create', { label: "Auntie Efua's phone", environment: 'test' });
    expect(made.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/owner#t=ov_[A-Za-z0-9_-]{43}$/);
    expect(made.link).toMatchObject({ label: "Auntie Efua's phone", environment: 'test', revokedAt: null });
    const listed = await core.invoke('owner-links:list', {});
    expect(listed.links.map((l) => l.id)).toContain(made.link.id);
    expect(JSON.stringify(listed)).not.toContain(made.url.split('#t=')[1]);

    // The phone: the fragment's token for a cookie, then the page's data and stream.
    const base = services.relay.url;
    const token = made.url.split('#t=')[1] as string;
    const session = await fetch(`${base}/v1/owner/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const summary = async () =>
      (await (await fetch(`${base}/v1/owner/summary`, { headers: { cookie } })).json()) as {
        lastSeq: number;
        day: { totals: { gross: number; fees: number; net: number; succeeded: number; failed: number } };
      };
    const before = await summary();
    const sse = await SseClient.connect(`${base}/v1/owner/stream?after=${before.lastSeq}`, undefined, { cookie });

    const sale = await startSale(core, msisdnEnding('67', 3), '12.00');
    await waitForState(core, sale.id, ['success'], 20_000);
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'payment'), 5_000);
    const payment = JSON.parse(sse.messages.find((m) => m.event === 'payment')!.data) as Record<string, unknown>;
    expect(payment).toMatchObject({ amount: 1200, status: 'SUCCESS', till: 'Front counter' });
    expect(String(payment.number)).toMatch(/^0\d\d \*\*\* \d{2}67$/);

    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Accra' });
    const takings = await core.invoke('takings:report', { from: today, to: today });
    const phone = (await summary()).day.totals;
    const pesewas = (s: string) => parseAmount(s, { allowZero: true });
    expect(phone.gross).toBe(pesewas(takings.totals.gross));
    expect(phone.fees).toBe(pesewas(takings.totals.fees));
    expect(phone.net).toBe(pesewas(takings.totals.net));
    expect(phone.succeeded).toBe(takings.totals.succeeded);

    // A cashier: refused by the core before any relay is asked.
    await core.invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    await core.invoke('session:signIn', { pin: KOFI });
    expect(await refusal(core.invoke('owner-links:create', { label: 'Mine', environment: 'test' }))).toBe('FORBIDDEN');
    expect(await refusal(core.invoke('owner-links:list', {}))).toBe('FORBIDDEN');
    expect(await refusal(core.invoke('owner-links:revoke', { id: made.link.id, environment: 'test' }))).toBe('FORBIDDEN');

    await core.invoke('session:signIn', { pin: PIN });
    // The till lists the link's phone, and turns that one phone off (a cashier cannot).
    const linkNow = async () => (await core.invoke('owner-links:list', {})).links.find((l) => l.id === made.link.id);
    const phones = (await linkNow())?.devices ?? [];
    expect(phones).toHaveLength(1);
    const off = { id: made.link.id, deviceId: phones[0]?.id as string, environment: 'test' as const };
    await core.invoke('session:signIn', { pin: KOFI });
    expect(await refusal(core.invoke('owner-links:revokeDevice', off))).toBe('FORBIDDEN');
    await core.invoke('session:signIn', { pin: PIN });
    await core.invoke('owner-links:revokeDevice', off);
    expect((await linkNow())?.devices[0]?.revokedAt).not.toBeNull();
    await core.invoke('owner-links:revoke', { id: made.link.id, environment: 'test' });
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 3_000);
    expect((await fetch(`${base}/v1/owner/summary`, { headers: { cookie } })).status).toBe(401);
    expect((await core.invoke('owner-links:list', {})).links.find((l) => l.id === made.link.id)?.revokedAt).not.toBeNull();
  });

  it('the owner asks a link for a new invitation: a second phone gets in with it, once, while the first stays in; a cashier is refused', async () => {
    const { core, services } = fixture;
    const base = services.relay.url;
    const exchange = async (url: string) =>
      fetch(`${base}/v1/owner/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: url.split('#t=')[1] }),
      });
    const made = await core.invoke('owner-links:create', { label: 'Two phones', environment: 'test' });
    const first = await exchange(made.url);
    expect(first.status).toBe(200);
    const firstCookie = (first.headers.get('set-cookie') ?? '').split(';')[0] as string;

    const again = await core.invoke('owner-links:invite', { id: made.link.id, environment: 'test' });
    expect(again.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/owner#t=ov_[A-Za-z0-9_-]{43}$/);
    expect(again.url).not.toBe(made.url);
    expect(Date.parse(again.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(again.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(JSON.stringify(await core.invoke('owner-links:list', {}))).not.toContain(again.url.split('#t=')[1]);
    expect((await exchange(again.url)).status).toBe(200);
    expect((await exchange(again.url)).status).not.toBe(200);
    const link = (await core.invoke('owner-links:list', {})).links.find((l) => l.id === made.link.id);
    expect(link?.devices).toHaveLength(2);
    expect((await fetch(`${base}/v1/owner/summary`, { headers: { cookie: firstCookie } })).status).toBe(200);

    await core.invoke('staff:add', { name: 'Ama', role: 'cashier', pin: '8642' });
    await core.invoke('session:signIn', { pin: '8642' });
    expect(await refusal(core.invoke('owner-links:invite', { id: made.link.id, environment: 'test' }))).toBe('FORBIDDEN');
    await core.invoke('session:signIn', { pin: PIN });
    await core.invoke('owner-links:revoke', { id: made.link.id, environment: 'test' });
    expect(await refusal(core.invoke('owner-links:invite', { id: made.link.id, environment: 'test' }))).toBe('NOT_FOUND');
  });

  it('the shop’s new time zone reaches its links: at once, or when the list is next opened after the relay was away', async () => {
    const { core, services } = fixture;
    const made = await core.invoke('owner-links:create', { label: 'Zone phone', environment: 'test' });
    expect(made.link.timeZone).toBe('Africa/Accra');
    const base = services.relay.url;
    // node:http without keep-alive: the relay is stopped and started again below.
    const onRelay = async () =>
      ((await get(`${base}/v1/owner-links`, services.token)).json as { links: Array<{ id: string; timeZone: string }> }).links.find(
        (l) => l.id === made.link.id,
      )?.timeZone;
    const token = made.url.split('#t=')[1] as string;
    const session = await fetch(`${base}/v1/owner/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;

    // UTC+14: its date differs from Accra's for ten hours of every day.
    await core.invoke('settings:saveTill', { tillName: 'Front counter', timeZone: 'Pacific/Kiritimati' });
    await expect.poll(onRelay, { timeout: 5_000 }).toBe('Pacific/Kiritimati');
    await expect
      .poll(
        async () => ((await (await fetch(`${base}/v1/owner/summary`, { headers: { cookie } })).json()) as Record<string, unknown>).today,
        {
          timeout: 3_000,
        },
      )
      .toBe(localDate(Date.now(), 'Pacific/Kiritimati'));

    // The relay is away when the zone changes: the save still succeeds; opening the list puts it right.
    await services.stopRelay();
    try {
      await core.invoke('settings:saveTill', { tillName: 'Front counter', timeZone: 'Asia/Kolkata' });
    } finally {
      await services.startRelayAgain();
    }
    // (A kept-alive socket to the stopped relay may fail once: polled.)
    await expect.poll(onRelay, { timeout: 5_000 }).toBe('Pacific/Kiritimati');
    const listedZone = async () => (await core.invoke('owner-links:list', {})).links.find((l) => l.id === made.link.id)?.timeZone;
    await expect.poll(listedZone, { timeout: 5_000 }).toBe('Asia/Kolkata');
    expect(await onRelay()).toBe('Asia/Kolkata');
    await core.invoke('settings:saveTill', { tillName: 'Front counter', timeZone: 'Africa/Accra' });
    await expect.poll(onRelay, { timeout: 5_000 }).toBe('Africa/Accra');
  });
});
