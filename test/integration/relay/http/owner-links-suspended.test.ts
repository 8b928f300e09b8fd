/**
 * A suspended merchant's tills make, list and change no phone links (403 MERCHANT_SUSPENDED, as every
 * other route of a suspended merchant answers), and its open pages say the shop's relay access is
 * suspended; resumed, they work again. A till token revoked ends the links it made and their phones; a
 * merchant removed takes its links and phones with it. PostgreSQL only: suspension is the
 * operator's, and a SQLite relay serves one shop with no operator above it.
 */
import { expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import { createToken, openPgPool, removeMerchant, revokeToken, setSuspended } from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { OPERATOR, openPage } from '../owner-page.js';
import { seedPgTenant, TEST_MERCHANT } from '../stores.js';

describePg('owner links when the operator suspends, revokes or removes', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  it('are refused 403 MERCHANT_SUSPENDED for creation, listing and changes, and work again once resumed', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const pool = await openPgPool(databaseUrl, 2);
    open.push({ close: () => pool.end() });
    const relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
    open.push(relay);
    const call = (method: string, path = '', body?: unknown) =>
      fetch(`${relay.url}/v1/owner-links${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const made = (await (await call('POST', '', { label: 'Phone', environment: 'live' })).json()) as { link: { id: string } };
    const phone = await openPage(relay.url, token, 'Owner');
    const summary = () => fetch(`${relay.url}/v1/owner/summary`, { headers: { cookie: phone.cookie } });

    await setSuspended(pool, TEST_MERCHANT, true, 'test');
    // The open page hears it, and says why (not "Offline"); the page's reads say the same.
    await phone.sse.waitFor((c) => c.messages.some((m) => m.event === 'suspended'), 10_000);
    expect(phone.sse.messages.find((m) => m.event === 'suspended')?.data).toContain("The shop's relay access is suspended");
    const paused = await summary();
    expect(paused.status).toBe(403);
    expect(await paused.json()).toMatchObject({ error: { code: 'MERCHANT_SUSPENDED', suspended: true } });
    await expect.poll(async () => (await call('GET')).status, { timeout: 10_000 }).toBe(403);
    const answers = [
      await call('GET'),
      await call('POST', '', { label: 'Another', environment: 'live' }),
      await call('PATCH', '', { timeZone: 'Europe/London' }),
      await call('DELETE', `/${made.link.id}`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'MERCHANT_SUSPENDED' } });
    }

    await setSuspended(pool, TEST_MERCHANT, false, 'test');
    await expect.poll(async () => (await call('GET')).status, { timeout: 10_000 }).toBe(200);
    const listed = (await (await call('GET')).json()) as { links: Array<{ id: string; revokedAt: string | null }> };
    expect(listed.links).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: made.link.id, revokedAt: null }), expect.objectContaining({ id: phone.id })]),
    );
    // Resumed: the phone reads again with the credential it had.
    expect((await summary()).status).toBe(200);
  });

  it('revoking a till token ends its links and their phones; removing the merchant removes its links and phones', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const pool = await openPgPool(databaseUrl, 2);
    open.push({ close: () => pool.end() });
    const relay = await startRelay({ databaseUrl, masterKey, config: {}, log: () => {} });
    open.push(relay);
    const other = await createToken(pool, TEST_MERCHANT, 'back-office');
    // The relay hears of a new token by notification: wait until it knows it.
    await expect
      .poll(async () => (await fetch(`${relay.url}/v1/owner-links`, { headers: { authorization: `Bearer ${other}` } })).status, {
        timeout: 10_000,
      })
      .toBe(200);
    const byFront = await openPage(relay.url, token, 'Made at the front');
    const byBack = await openPage(relay.url, other, 'Made at the back');
    const read = (cookie: string) => fetch(`${relay.url}/v1/owner/summary`, { headers: { cookie } });

    await revokeToken(pool, TEST_MERCHANT, 'front-counter', 'test');
    await byFront.sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 10_000);
    const refused = await read(byFront.cookie);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { message: OPERATOR, revoked: true } });
    expect((await read(byBack.cookie)).status).toBe(200);
    const listed = (await (await fetch(`${relay.url}/v1/owner-links`, { headers: { authorization: `Bearer ${other}` } })).json()) as {
      links: Array<{ id: string; revokedAt: string | null }>;
    };
    expect(listed.links.find((l) => l.id === byFront.id)?.revokedAt).not.toBeNull();
    expect(listed.links.find((l) => l.id === byBack.id)?.revokedAt).toBeNull();

    await setSuspended(pool, TEST_MERCHANT, true, 'test');
    await removeMerchant(pool, TEST_MERCHANT, 'test');
    const left = await pool.query(
      'SELECT (SELECT count(*) FROM owner_links)::int AS links, (SELECT count(*) FROM owner_devices)::int AS phones',
    );
    expect(left.rows[0]).toEqual({ links: 0, phones: 0 });
    await expect.poll(async () => (await read(byBack.cookie)).status, { timeout: 10_000 }).toBe(401);
  });
});
