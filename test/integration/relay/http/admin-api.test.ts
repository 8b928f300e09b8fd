/**
 * The admin HTTP API against a real PostgreSQL 15: its own loopback listener, admin
 * tokens (hashed, revocable), merchants, keys and tokens, usage per merchant per day, suspension
 * (deliveries and till reads 403 MERCHANT_SUSPENDED, till streams end), and the audit of every change. On SQLite it answers 501.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import {
  addMerchant,
  createAdminToken,
  createToken,
  listAdminTokens,
  openPgPool,
  revokeAdminToken,
} from '../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { adminCall, deliver, get, LIVE_KEY, makeConfig, SseClient, transaction } from '../helpers.js';

describePg('relay on PostgreSQL: the admin API', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  async function setUp(logs: Array<Record<string, unknown>> = []): Promise<{ relay: RunningRelay; pool: pg.Pool; admin: string }> {
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
      log: (l) => logs.push(l),
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
    const { relay, pool, admin } = await setUp();
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
    const notSuspended = await adminCall(a, 'DELETE', '/admin/v1/merchants/MCH_ama', admin);
    expect(notSuspended.status).toBe(409);
    // The command named is the installed one, as the operator types it.
    expect(notSuspended.body).toContain('suspend it first (momo-relay merchant suspend --id MCH_ama)');
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
    // Named by the token's number, which a later token labelled "ops" does not take.
    const [ops] = await listAdminTokens(pool);
    expect(audit.filter((e) => e.action !== 'admin-token.create').every((e) => e.actor === `admin:${ops!.id}`)).toBe(true);
    expect(JSON.stringify(audit)).not.toMatch(/sk_live_|rt_/);
    const health = (await adminCall(a, 'GET', '/admin/v1/health', admin)).json;
    expect(health).toMatchObject({ ok: true, store: 'postgres', merchants: 1, unreadableKeys: [], database: { ok: true } });
  });

  it('counts and logs refused admin tokens by reason; an expired token is refused; the audit names tokens by number', async () => {
    const logs: Array<Record<string, unknown>> = [];
    const { relay, pool, admin } = await setUp(logs);
    const a = relay.adminUrl!;
    const status = async (token: string | null) => (await adminCall(a, 'GET', '/admin/v1/merchants', token)).status;
    expect(await status(null)).toBe(401);
    expect(await status('not-a-token')).toBe(401);
    expect(await status(`at_${'A'.repeat(43)}`)).toBe(401);
    expect(await status(`at_${'B'.repeat(43)}`)).toBe(401);
    await revokeAdminToken(pool, 'ops');
    const revoked = await adminCall(a, 'GET', '/admin/v1/merchants', admin);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toContain('revoked');
    // The label is free again: a new token under it is another token, with another number.
    const second = await createAdminToken(pool, 'ops', undefined, { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await adminCall(a, 'POST', '/admin/v1/merchants', second, { id: 'MCH_ama' })).status).toBe(201);
    await pool.query("UPDATE admin_tokens SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL");
    const expired = await adminCall(a, 'GET', '/admin/v1/merchants', second);
    expect(expired.status).toBe(401);
    expect(expired.body).toContain('expired');

    const m = relay.metrics.adminAuthFailures;
    expect(['missing', 'malformed', 'unknown', 'revoked', 'expired'].map((reason) => m.get({ reason }))).toEqual([1, 1, 2, 1, 1]);
    const text = (await get(`${a}/metrics`)).body;
    expect(text).toContain('relay_admin_auth_failures_total{reason="unknown"} 2');
    // One line per reason at once, then the count of its repeats (here at close); never the token.
    const tokens = await listAdminTokens(pool);
    const refusedLines = () => logs.filter((l) => l.msg === 'admin_auth_refused');
    expect(refusedLines().map((l) => [l.reason, l.count, l.tokenId])).toEqual([
      ['missing', 1, undefined],
      ['malformed', 1, undefined],
      ['unknown', 1, undefined],
      ['revoked', 1, tokens[0]!.id],
      ['expired', 1, tokens[1]!.id],
    ]);
    await relay.close();
    expect(
      refusedLines()
        .filter((l) => l.reason === 'unknown')
        .map((l) => l.count),
    ).toEqual([1, 1]);
    expect(JSON.stringify(logs)).not.toContain('A'.repeat(43));
    const { rows } = await pool.query<{ actor: string; action: string; target: string }>(
      "SELECT actor, action, target FROM admin_audit WHERE action <> 'admin-token.revoke' ORDER BY id",
    );
    expect(rows.map((r) => [r.action, r.target, r.actor])).toEqual([
      ['admin-token.create', String(tokens[0]!.id), expect.stringMatching(/^cli:/)],
      ['admin-token.create', String(tokens[1]!.id), expect.stringMatching(/^cli:/)],
      ['merchant.add', null, `admin:${tokens[1]!.id}`],
    ]);
    expect(tokens.map((t) => [t.label, t.expiresAt !== null, t.revokedAt !== null])).toEqual([
      ['ops', false, true],
      ['ops', true, false],
    ]);
  });

  it('pages every list with a cursor that holds while items come and go; a route matches its path whole', async () => {
    const { relay, pool, admin } = await setUp();
    const a = relay.adminUrl!;
    for (const id of ['MCH_b', 'MCH_d', 'MCH_f', 'MCH_h', 'MCH_j']) await addMerchant(pool, id);
    for (const label of ['t1', 't2', 't3']) await createToken(pool, 'MCH_b', label);
    /** Every page of `path`, following each Link: rel="next"; `between` runs after the first page. */
    async function all(path: string, between: () => Promise<void> = async () => {}): Promise<unknown[][]> {
      const pages: unknown[][] = [];
      let next: string | null = path;
      while (next) {
        const res = await fetch(`${a}${next}`, { headers: { authorization: `Bearer ${admin}` } });
        expect(res.status).toBe(200);
        pages.push((await res.json()) as unknown[]);
        const link = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '');
        next = link ? `${path.split('?')[0]}${link[1]}` : null;
        if (pages.length === 1) await between();
      }
      return pages;
    }
    const ids = (pages: unknown[][]) => pages.map((p) => (p as Array<{ id: string }>).map((x) => x.id));
    // Added before the cursor and after it while paging: nothing is shown twice or skipped.
    const merchants = await all('/admin/v1/merchants?limit=2', async () => {
      await addMerchant(pool, 'MCH_a');
      await addMerchant(pool, 'MCH_e');
    });
    expect(ids(merchants)).toEqual([
      ['MCH_b', 'MCH_d'],
      ['MCH_e', 'MCH_f'],
      ['MCH_h', 'MCH_j'],
    ]);
    const tokens = await all('/admin/v1/tokens?limit=2');
    expect(tokens.map((p) => (p as Array<{ label: string }>).map((t) => t.label))).toEqual([['t1', 't2'], ['t3']]);
    expect((await all('/admin/v1/merchants/MCH_b/tokens?limit=1')).length).toBe(3);
    const audit = await all('/admin/v1/audit?limit=4');
    const auditIds = audit.flat().map((x) => (x as { id: number }).id);
    expect(auditIds).toEqual([...auditIds].sort((x, y) => y - x));
    expect(new Set(auditIds).size).toBe(11); // 1 admin token, 7 merchants, 3 tokens
    expect((await all('/admin/v1/merchants/MCH_b/audit?limit=2')).flat()).toHaveLength(4);
    expect((await adminCall(a, 'GET', '/admin/v1/merchants?limit=0', admin)).status).toBe(400);
    expect((await adminCall(a, 'GET', '/admin/v1/merchants?after=%2B%2B', admin)).status).toBe(400);

    for (const [method, path] of [
      ['POST', '/admin/v1/merchants/MCH_b/suspend/anything'],
      ['POST', '/admin/v1/merchants/MCH_b/resume/x'],
      ['GET', '/admin/v1/merchants/MCH_b/keys/x'],
      ['DELETE', '/admin/v1/merchants/MCH_b/tokens/t1/x'],
      ['GET', '/admin/v1/health/x'],
      ['DELETE', '/admin/v1/keys/pk_x/y'],
    ] as const) {
      expect((await adminCall(a, method, path, admin)).status, `${method} ${path}`).toBe(404);
    }
    expect((await adminCall(a, 'GET', '/admin/v1/merchants/MCH_b', admin)).json).toMatchObject({ suspendedAt: null, tokens: 3 });
  });

  it('on the single-shop SQLite relay, answers 501 saying why, serves /metrics, and warns of a bind beyond loopback', async () => {
    const dir = tempDir('relay-admin-sqlite');
    const logs: Array<Record<string, unknown>> = [];
    const relay = await startRelay({
      dataDir: dir,
      adminPort: 0,
      adminHost: '0.0.0.0',
      config: makeConfig().config,
      log: (l) => logs.push(l),
    });
    try {
      const adminUrl = relay.adminUrl!.replace('0.0.0.0', '127.0.0.1');
      const res = await adminCall(adminUrl, 'GET', '/admin/v1/merchants', null);
      expect(res.status).toBe(501);
      expect(res.body).toMatch(/PostgreSQL/);
      // Its metrics are there (not on the public port); bound beyond loopback, it said so at start.
      expect((await get(`${adminUrl}/metrics`)).body).toMatch(/^relay_event_log_last_seq 0$/m);
      expect((await get(`${relay.url}/metrics`)).status).toBe(404);
      expect(logs.find((l) => l.msg === 'admin_listener_exposed')).toMatchObject({ level: 'warn', adminUrl: relay.adminUrl });
    } finally {
      await relay.close();
      removeDir(dir);
    }
  });
});
