/**
 * The owner's phone view on two PostgreSQL relay instances sharing one database: the phone's page is connected to
 * one, the webhook arrives at the other. The result reaches the page (woken by the database's
 * notification), the figures agree on both, and a link turned off through the other instance ends
 * the open page within seconds. A merchant's count of links holds across both instances: links asked
 * for at once through either are made up to the count and no further.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { addMerchant, createToken, openPgPool } from '../../../../relay/store/pg/index.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { deliver, get, LIVE_KEY, post, SseClient, transaction } from '../helpers.js';
import { seedPgTenant } from '../stores.js';

/** The merchant whose links are asked for at once: its own, so its count starts at none. */
const BUSY = 'MCH_many_links';

describePg('owner view on two PostgreSQL instances', () => {
  const cluster = usePgCluster();
  let a: RunningRelay;
  let b: RunningRelay;
  let databaseUrl: string;
  let token: string;
  let busyToken: string;
  beforeAll(async () => {
    const seeded = await seedPgTenant(cluster());
    ({ databaseUrl, token } = seeded);
    const pool = await openPgPool(databaseUrl, 1);
    try {
      await addMerchant(pool, BUSY);
      busyToken = await createToken(pool, BUSY, 'front-counter');
    } finally {
      await pool.end();
    }
    const options = { databaseUrl, masterKey: seeded.masterKey, config: { maxOwnerLinksPerMerchant: 5 }, catchUpMs: 200, log: () => {} };
    a = await startRelay(options);
    b = await startRelay(options);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('the page on one instance sees a webhook delivered to the other, and hears its link turned off there', async () => {
    const made = await post(`${a.url}/v1/owner-links`, JSON.stringify({ label: 'Phone', environment: 'live' }), {
      authorization: `Bearer ${token}`,
    });
    expect(made.status).toBe(201);
    const { token: viewer, link } = made.json as { token: string; link: { id: string } };
    const session = await fetch(`${a.url}/v1/owner/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: viewer }),
    });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const sse = await SseClient.connect(`${a.url}/v1/owner/stream?after=0`, undefined, { cookie });
    expect(sse.status).toBe(200);

    const sent = Date.now();
    expect((await deliver(b.url, transaction('live', { completedAt: new Date().toISOString() }), LIVE_KEY)).status).toBe(200);
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'payment'), 5_000);
    expect(Date.now() - sent).toBeLessThan(1_000);

    // The same cookie reads the same figures from either instance.
    const onA = (await get(`${a.url}/v1/owner/summary`, undefined, { cookie })).json as { day: { totals: { gross: number } } };
    const onB = (await get(`${b.url}/v1/owner/summary`, undefined, { cookie })).json as { day: { totals: { gross: number } } };
    expect(onA.day.totals.gross).toBe(1250);
    expect(onB.day.totals).toEqual(onA.day.totals);

    const off = await fetch(`${b.url}/v1/owner-links/${link.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(off.status).toBe(204);
    await sse.waitFor((c) => c.messages.some((m) => m.event === 'revoked'), 5_000);
    await expect.poll(async () => (await get(`${a.url}/v1/owner/summary`, undefined, { cookie })).status, { timeout: 3_000 }).toBe(401);
  });

  it('a merchant at maxOwnerLinksPerMerchant 5 gets 5 links of 60 asked for at once through both instances, the rest 409', async () => {
    const db = new pg.Client(databaseUrl);
    await db.connect();
    try {
      // The race made certain: links may be counted but none stored until both instances have asked. A count
      // apart from its insert then lets each instance store up to 5 (2 × 5 inserts wait on this lock); a count
      // and insert made one step per merchant wait on each other instead (a lock other than this table's).
      await db.query('BEGIN');
      await db.query('LOCK TABLE owner_links IN SHARE MODE');
      const asked = Array.from({ length: 60 }, (_, i) =>
        post(`${i % 2 ? b.url : a.url}/v1/owner-links`, JSON.stringify({ label: `Phone ${i}`, environment: 'live' }), {
          authorization: `Bearer ${busyToken}`,
        }),
      );
      try {
        const waiting = async () =>
          (
            await db.query<{ held: boolean }>(
              "SELECT count(*) >= 10 OR bool_or(locktype <> 'relation') AS held FROM pg_locks WHERE NOT granted",
            )
          ).rows[0]?.held;
        await expect.poll(waiting, { timeout: 5_000 }).toBe(true);
      } finally {
        await db.query('COMMIT');
      }
      const statuses = (await Promise.all(asked)).map((r) => r.status);
      const counted = { made: statuses.filter((s) => s === 201).length, full: statuses.filter((s) => s === 409).length };
      expect(counted).toEqual({ made: 5, full: 55 });
      const refusals = (r: RunningRelay) => r.metrics.shareRefusals.get({ limit: 'maxOwnerLinksPerMerchant' });
      expect(refusals(a) + refusals(b)).toBe(55);
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM owner_links WHERE merchant_id = $1', [BUSY]);
      expect(Number(rows[0]?.n)).toBe(5);
    } finally {
      await db.end();
    }
  });
});
