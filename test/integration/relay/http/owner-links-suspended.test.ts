/**
 * A suspended merchant's tills make, list and change no phone links (403 MERCHANT_SUSPENDED, as every
 * other route of a suspended merchant answers); resumed, they do again. PostgreSQL only: suspension is the
 * operator's, and a SQLite relay serves one shop with no operator above it.
 */
import { expect, it } from 'vitest';
import { startRelay } from '../../../../relay/http/index.js';
import { openPgPool, setSuspended } from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { seedPgTenant, TEST_MERCHANT } from '../stores.js';

describePg('owner links of a suspended merchant', () => {
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

    await setSuspended(pool, TEST_MERCHANT, true, 'test');
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
    expect(listed.links).toEqual([expect.objectContaining({ id: made.link.id, revokedAt: null })]);
  });
});
