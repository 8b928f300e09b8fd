/**
 * The owner's phone links through the admin API, against a real PostgreSQL 15: the operator lists a merchant's
 * phone links (`GET /admin/v1/merchants/<id>/owner-links`) and turns one off
 * (`DELETE /admin/v1/owner-links/<id>`), audited as `admin:<label>`; a page already open hears it
 * within seconds, saying truthfully that the relay's operator turned it off (not the shop owner).
 * Removing a merchant takes its summary and links with it.
 */
import { expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import {
  createAdminToken,
  listAdminTokens,
  listAudit,
  openPgPool,
  removeMerchant,
  setSuspended,
} from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { adminCall, deliver, get, LIVE_KEY, post, transaction } from '../helpers.js';
import { seedPgTenant, TEST_MERCHANT } from '../stores.js';
import { OPERATOR, openPage } from '../owner-page.js';

describePg('owner links, the operator’s side: admin API', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  it('lists a merchant’s links, turns one off (audited), and the open page says the operator did it', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const pool = await openPgPool(databaseUrl, 2);
    open.push({ close: () => pool.end() });
    const admin = await createAdminToken(pool, 'ops');
    const relay = await startRelay({ databaseUrl, masterKey, adminPort: 0, config: {}, log: () => {} });
    open.push(relay);
    const adminUrl = relay.adminUrl!;

    const efua = await openPage(relay.url, token, "Auntie Efua's phone");
    open.push({ close: async () => efua.sse.close() });
    const listed = await adminCall(adminUrl, 'GET', `/admin/v1/merchants/${TEST_MERCHANT}/owner-links`, admin);
    expect(listed.status).toBe(200);
    expect(listed.json).toEqual([
      expect.objectContaining({
        id: efua.id,
        merchantId: TEST_MERCHANT,
        label: "Auntie Efua's phone",
        environment: 'live',
        revokedAt: null,
      }),
    ]);
    expect(listed.body).not.toContain(efua.token);
    expect(listed.body).not.toContain('sha256:');
    expect((await adminCall(adminUrl, 'GET', '/admin/v1/merchants/MCH_nobody/owner-links', admin)).status).toBe(404);

    const sent = Date.now();
    const off = await adminCall(adminUrl, 'DELETE', `/admin/v1/owner-links/${efua.id}`, admin);
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ id: efua.id, revokedBy: 'operator', changed: true });
    await efua.sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 5000);
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(JSON.parse(efua.sse.messages.find((m) => m.event === 'revoked')!.data)).toEqual({ message: OPERATOR });
    // Within a second or so every request of the page is refused with the same words.
    await expect
      .poll(async () => (await get(`${relay.url}/v1/owner/summary`, undefined, { cookie: efua.cookie })).json, { timeout: 3000 })
      .toMatchObject({ error: { message: OPERATOR, revoked: true } });

    // Again: nothing changes, nothing more is audited; an unknown link is 404.
    expect((await adminCall(adminUrl, 'DELETE', `/admin/v1/owner-links/${efua.id}`, admin)).json).toMatchObject({ changed: false });
    expect((await adminCall(adminUrl, 'DELETE', '/admin/v1/owner-links/ol_AAAAAAAAAAAA', admin)).status).toBe(404);
    expect((await adminCall(adminUrl, 'DELETE', '/admin/v1/owner-links/nonsense', admin)).status).toBe(404);
    const audit = (await listAudit(pool, { merchantId: TEST_MERCHANT })).filter((a) => a.action === 'owner-link.revoke');
    const [ops] = await listAdminTokens(pool);
    expect(audit).toEqual([
      expect.objectContaining({
        actor: `admin:${ops!.id}`,
        target: efua.id,
        detail: { environment: 'live', label: "Auntie Efua's phone" },
      }),
    ]);

    // The till's own list shows it off; a link the owner turns off still says the owner did it.
    const kofi = await openPage(relay.url, token, "Kofi's phone");
    open.push({ close: async () => kofi.sse.close() });
    await fetch(`${relay.url}/v1/owner-links/${kofi.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    await kofi.sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 3000);
    expect(JSON.parse(kofi.sse.messages.find((m) => m.event === 'revoked')!.data)).toEqual({
      message: 'This link was turned off by the shop owner',
    });
    expect((await adminCall(adminUrl, 'GET', `/admin/v1/merchants/${TEST_MERCHANT}/owner-links`, admin)).json).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: kofi.id, revokedBy: 'owner' })]),
    );
  });

  it('removes a merchant with events and phone links (its summary and links go with it), not while events are unread unless told how many', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const pool = await openPgPool(databaseUrl, 2);
    open.push({ close: () => pool.end() });
    const admin = await createAdminToken(pool, 'ops');
    const relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
    open.push(relay);
    await post(`${relay.url}/v1/owner-links`, JSON.stringify({ label: 'Phone', environment: 'live' }), {
      authorization: `Bearer ${token}`,
    });
    for (let i = 0; i < 2; i++) {
      expect((await deliver(relay.url, transaction('live', { completedAt: new Date().toISOString() }), LIVE_KEY)).status).toBe(200);
    }
    // The till reads the first; closing writes how far it read.
    expect((await get(`${relay.url}/v1/transactions?after=0&limit=1`, token)).status).toBe(200);
    await relay.close();
    await setSuspended(pool, TEST_MERCHANT, true);
    // The second was acknowledged and no till has read it: refused, naming the count and the flag, until the flag names it.
    await expect(removeMerchant(pool, TEST_MERCHANT)).rejects.toThrow(
      /has 1 acknowledged event\(s\) that no till has read \(the furthest of its 1 till\(s\) has read through sequence 1\).*--discard-unread 1 \(admin API: DELETE \/admin\/v1\/merchants\/MCH_conformance\?discardUnread=1\)/,
    );
    await expect(removeMerchant(pool, TEST_MERCHANT, 'test', { discardUnread: 2 })).rejects.toThrow(/--discard-unread 1\b/);
    const operator = await startRelay({ databaseUrl, masterKey, adminPort: 0, config: {}, log: () => {} });
    open.push(operator);
    const refused = await adminCall(operator.adminUrl!, 'DELETE', `/admin/v1/merchants/${TEST_MERCHANT}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      error: { code: 'CONFLICT', message: expect.stringMatching(/no till has read.*discardUnread=1/) },
    });
    expect((await pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(2);
    // owner_hourly and owner_links reference the merchant: removing it must take them too (else a foreign key violation).
    const removed = await adminCall(operator.adminUrl!, 'DELETE', `/admin/v1/merchants/${TEST_MERCHANT}?discardUnread=1`, admin);
    expect(removed.json).toEqual({ removed: TEST_MERCHANT, events: 2, discardedUnread: 1 });
    for (const table of ['owner_hourly', 'owner_links', 'events', 'till_reads']) {
      expect((await pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).toBe(0);
    }
    const [line] = (await listAudit(pool, { merchantId: TEST_MERCHANT })).filter((a) => a.action === 'merchant.remove');
    const [ops] = await listAdminTokens(pool);
    expect(line).toMatchObject({ actor: `admin:${ops!.id}`, detail: { events: 2, discardedUnread: 1 } });
  });
});
