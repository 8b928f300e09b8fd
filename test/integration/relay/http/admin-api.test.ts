/**
 * The admin HTTP API against a real PostgreSQL 15: its own loopback listener, admin
 * tokens (hashed, revocable), merchants, keys and tokens, usage per merchant per day, suspension
 * (deliveries and till reads 403 MERCHANT_SUSPENDED, till streams end), and the audit of every change. On SQLite it answers 501.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { createAdminToken, openPgPool, revokeAdminToken } from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { adminCall, deliver, get, LIVE_KEY, makeConfig, SseClient, transaction } from '../helpers.js';

describePg('relay on PostgreSQL: the admin API', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  async function setUp(): Promise<{ relay: RunningRelay; pool: pg.Pool; admin: string }> {
    const url = await cluster().createDatabase();
    const pool = await openPgPool(url, 2);
    open.push({ close: () => pool.end() });
    const admin = await createAdminToken(pool, 'ops');
    const relay = await startRelay({
      databaseUrl: url,
      masterKey: randomBytes(32),
      adminPort: 0,
      catchUpMs: 200,
      config: {},
      log: () => {},
    });
    open.push(relay);
    return { relay, pool, admin };
  }

  it('listens apart from the public port, on loopback, and wants a live admin token', async () => {
    const { relay, pool, admin } = await setUp();
    expect(relay.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(relay.adminUrl).not.toBe(relay.url);
    expect((await get(`${relay.url}/admin/v1/health`, admin)).status).toBe(404); // not on the public port
    expect((await adminCall(relay.adminUrl!, 'GET', '/admin/v1/merchants', null)).status).toBe(401);
    expect((await adminCall(relay.adminUrl!, 'GET', '/admin/v1/merchants', `at_${'A'.repeat(43)}`)).status).toBe(401);
    expect((await adminCall(relay.adminUrl!, 'GET', '/admin/v1/merchants', admin)).json).toEqual([]);
    const stored = await pool.query('SELECT token_hash FROM admin_tokens');
    expect(JSON.stringify(stored.rows)).not.toContain(admin);
    await revokeAdminToken(pool, 'ops');
    expect((await adminCall(relay.adminUrl!, 'GET', '/admin/v1/merchants', admin)).status).toBe(401);
  });

  it('manages merchants, keys and tokens; counts usage; suspends; audits every change', async () => {
    const { relay, admin } = await setUp();
    const a = relay.adminUrl!;
    expect((await adminCall(a, 'POST', '/admin/v1/merchants', admin, { id: 'MCH_ama', name: 'Ama Stores' })).status).toBe(201);
    expect((await adminCall(a, 'POST', '/admin/v1/merchants', admin, { id: 'MCH_ama' })).status).toBe(409);
    expect((await adminCall(a, 'POST', '/admin/v1/merchants', admin, { id: 'shop 2' })).status).toBe(400);
    expect(
      (await adminCall(a, 'POST', '/admin/v1/merchants/MCH_ama/keys', admin, { publicId: LIVE_KEY.publicId, secret: LIVE_KEY.secret }))
        .status,
    ).toBe(201);
    const created = await adminCall(a, 'POST', '/admin/v1/merchants/MCH_ama/tokens', admin, { label: 'front-counter' });
    expect(created.status).toBe(201);
    const till = (created.json as { token: string }).token;
    expect(till).toMatch(/^rt_/);
    expect((await adminCall(a, 'GET', '/admin/v1/merchants/MCH_nobody/keys', admin)).status).toBe(404);

    // Served within the reload period (the keys and the tokens each reload on their own).
    await waitFor(async () => (await deliver(relay.url, transaction('live'), LIVE_KEY)).status === 200, 5_000, 'the key to be served');
    await waitFor(
      async () => (await get(`${relay.url}/v1/transactions?after=0`, till)).status === 200,
      5_000,
      'the till token to be served',
    );
    const keys = (await adminCall(a, 'GET', '/admin/v1/merchants/MCH_ama/keys', admin)).json as Array<Record<string, unknown>>;
    expect(keys).toMatchObject([{ publicId: LIVE_KEY.publicId, environment: 'live' }]);
    expect(JSON.stringify(keys)).not.toContain(LIVE_KEY.secret);

    // Suspended: deliveries 403 MERCHANT_SUSPENDED (the service retries any non-2xx), the stream ends, till reads 403.
    const stream = await SseClient.connect(`${relay.url}/v1/events`, till);
    expect((await adminCall(a, 'POST', '/admin/v1/merchants/MCH_ama/suspend', admin)).json).toMatchObject({
      suspended: true,
      changed: true,
    });
    await stream.waitFor((c) => c.closed, 5_000);
    await waitFor(async () => (await deliver(relay.url, transaction('live'), LIVE_KEY)).status === 403, 5_000, 'deliveries to get 403');
    const refusedDelivery = await deliver(relay.url, transaction('live'), LIVE_KEY);
    expect(refusedDelivery.json).toMatchObject({ error: { code: 'MERCHANT_SUSPENDED' } });
    const refusedRead = await get(`${relay.url}/v1/transactions?after=0`, till);
    expect(refusedRead.status).toBe(403);
    expect(refusedRead.json).toMatchObject({ error: { code: 'MERCHANT_SUSPENDED' } });
    expect((await adminCall(a, 'DELETE', '/admin/v1/merchants/MCH_ama/tokens/nope', admin)).status).toBe(404);
    expect((await adminCall(a, 'POST', '/admin/v1/merchants/MCH_ama/resume', admin)).json).toMatchObject({
      suspended: false,
      changed: true,
    });
    await waitFor(async () => (await deliver(relay.url, transaction('live'), LIVE_KEY)).status === 200, 5_000, 'deliveries again');

    const usage = await waitFor(
      async () => {
        const u = (await adminCall(a, 'GET', '/admin/v1/merchants/MCH_ama/usage', admin)).json as { days: Array<Record<string, unknown>> };
        return u.days[0] && (u.days[0].deliveries as number) >= 2 && u.days[0].tillsConnected === 1 ? u : false;
      },
      15_000,
      'usage to be written',
    );
    expect(usage.days[0]).toMatchObject({ tillsConnected: 1, rejections: { merchant_suspended: expect.any(Number) } });
    expect(usage.days[0]!.lastDeliveryAt).toEqual(expect.any(String));
    const tokens = await waitFor(
      async () => {
        const t = (await adminCall(a, 'GET', '/admin/v1/tokens', admin)).json as Array<{ lastUsedAt: string | null }>;
        return t[0]?.lastUsedAt ? t : false;
      },
      15_000,
      'token last use',
    );
    expect(tokens).toMatchObject([{ merchantId: 'MCH_ama', label: 'front-counter' }]);

    // Removing needs a suspended merchant.
    expect((await adminCall(a, 'DELETE', '/admin/v1/merchants/MCH_ama', admin)).status).toBe(409);
    const audit = (await adminCall(a, 'GET', '/admin/v1/audit', admin)).json as Array<{
      actor: string;
      action: string;
      merchantId: string;
    }>;
    expect(audit.map((e) => e.action).reverse()).toEqual([
      'admin-token.create',
      'merchant.add',
      'key.add',
      'token.create',
      'merchant.suspend',
      'merchant.resume',
    ]);
    expect(audit.filter((e) => e.action !== 'admin-token.create').every((e) => e.actor === 'admin:ops')).toBe(true);
    expect(JSON.stringify(audit)).not.toMatch(/sk_live_|rt_/);
    const health = (await adminCall(a, 'GET', '/admin/v1/health', admin)).json;
    expect(health).toMatchObject({ ok: true, store: 'postgres', merchants: 1, unreadableKeys: [], database: { ok: true } });
  });

  it('on the single-shop SQLite relay, answers 501 saying why', async () => {
    const dir = tempDir('relay-admin-sqlite');
    const relay = await startRelay({ dataDir: dir, adminPort: 0, config: makeConfig().config, log: () => {} });
    try {
      const res = await adminCall(relay.adminUrl!, 'GET', '/admin/v1/merchants', null);
      expect(res.status).toBe(501);
      expect(res.body).toMatch(/PostgreSQL/);
    } finally {
      await relay.close();
      removeDir(dir);
    }
  });
});
