/**
 * The master key is not a single point of failure, against a real PostgreSQL 15:
 * `key add` with another master key is refused and writes nothing; one unreadable secret at start-up
 * is set aside (named on the admin listener, counted by relay_unreadable_keys) while every other
 * merchant is served and /healthz stays 200; `master-key rotate` re-seals everything in one
 * transaction while a running instance keeps working, and a restart with the new key works; a
 * master key file others can read gets a warning.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import {
  addKey,
  addMerchant,
  assertMasterKey,
  createAdminToken,
  loadMasterKey,
  openPgPool,
  rotateMasterKey,
} from '../../../../../relay/store/pg/index.js';
import { sealSecret } from '../../../../../relay/store/pg/secret-box.js';
import { closeAfterEach } from '../../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';
import { waitFor } from '../../../../support/wait-for.js';
import { deliver, get, transaction } from '../../helpers.js';

const KEY_ONE = { publicId: 'pk_live_MasterOne01', secret: `sk_live_${'MasterSecretOne0000001'}` };
const KEY_TWO = { publicId: 'pk_live_MasterTwo01', secret: `sk_live_${'MasterSecretTwo0000002'}` };
const KEY_LATE = { publicId: 'pk_live_MasterLate1', secret: `sk_live_${'MasterSecretLate000003'}` };

describePg('relay on PostgreSQL: the master key', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();
  const noLog = () => {};

  async function setUp(): Promise<{ url: string; pool: pg.Pool; masterKey: Buffer }> {
    const url = await cluster().createDatabase();
    const pool = await openPgPool(url, 2);
    open.push({ close: () => pool.end() });
    const masterKey = randomBytes(32);
    for (const m of ['MCH_one', 'MCH_two']) await addMerchant(pool, m);
    await addKey(pool, masterKey, 'MCH_one', KEY_ONE.publicId, KEY_ONE.secret);
    await addKey(pool, masterKey, 'MCH_two', KEY_TWO.publicId, KEY_TWO.secret);
    return { url, pool, masterKey };
  }

  async function relay(url: string, masterKey: Buffer, previousMasterKeys: Buffer[] = []): Promise<RunningRelay> {
    const r = await startRelay({ databaseUrl: url, masterKey, previousMasterKeys, adminPort: 0, catchUpMs: 200, config: {}, log: noLog });
    open.push(r);
    return r;
  }

  const count = async (pool: pg.Pool, table: string) => Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

  it('key add with another master key is refused and writes nothing, with or without a check value', async () => {
    const { pool } = await setUp();
    const before = { keys: await count(pool, 'service_keys'), audit: await count(pool, 'admin_audit') };
    await expect(addKey(pool, randomBytes(32), 'MCH_one', KEY_LATE.publicId, KEY_LATE.secret)).rejects.toThrow(/not the relay's/);
    // A database from before the check value: the stored secrets are tried instead.
    await pool.query('DELETE FROM master_key_check');
    await expect(addKey(pool, randomBytes(32), 'MCH_one', KEY_LATE.publicId, KEY_LATE.secret)).rejects.toThrow(
      /opens none of the 2 stored secrets/,
    );
    expect({ keys: await count(pool, 'service_keys'), audit: await count(pool, 'admin_audit') }).toEqual(before);
    expect(await count(pool, 'master_key_check')).toBe(0);
  });

  it('starts with one unreadable secret: that key is set aside and named, every other merchant is served', async () => {
    const { url, pool, masterKey } = await setUp();
    // MCH_two's secret sealed with some other key (as a `key add` with the wrong key did before the check).
    await pool.query('UPDATE service_keys SET secret_sealed = $1 WHERE public_id = $2', [
      sealSecret(randomBytes(32), KEY_TWO.publicId, KEY_TWO.secret),
      KEY_TWO.publicId,
    ]);
    const r = await relay(url, masterKey);
    expect((await deliver(r.url, transaction('live'), KEY_ONE)).status).toBe(200);
    const refused = await deliver(r.url, transaction('live'), KEY_TWO);
    expect(refused.status).toBe(401);
    const health = await get(`${r.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await get(`${r.adminUrl!}/metrics`)).body).toMatch(/^relay_unreadable_keys 1$/m);
    const admin = await createAdminToken(pool, 'ops');
    const details = await get(`${r.adminUrl}/admin/v1/health`, admin);
    expect(details.status).toBe(200);
    expect(details.json).toMatchObject({ ok: true, merchants: 2, unreadableKeys: [{ publicId: KEY_TWO.publicId, merchantId: 'MCH_two' }] });
    expect(details.body).not.toContain(KEY_TWO.secret);
  });

  it('master-key rotate re-seals in one transaction; a running instance keeps working; restarts use the new key', async () => {
    const { url, pool, masterKey } = await setUp();
    const running = await relay(url, masterKey);
    const newKey = randomBytes(32);
    const sealedBefore = (await pool.query('SELECT public_id, secret_sealed FROM service_keys ORDER BY public_id')).rows;

    await expect(rotateMasterKey(pool, randomBytes(32), newKey)).rejects.toThrow(/not the relay's/);
    expect((await pool.query('SELECT public_id, secret_sealed FROM service_keys ORDER BY public_id')).rows).toEqual(sealedBefore);
    expect(await rotateMasterKey(pool, masterKey, newKey)).toEqual({ resealed: 2 });
    const sealedAfter = (await pool.query('SELECT secret_sealed FROM service_keys ORDER BY public_id')).rows;
    expect(sealedAfter.map((r) => r.secret_sealed)).not.toEqual(sealedBefore.map((r) => r.secret_sealed));

    // The running instance reloads (the rows changed) and keeps the secrets it holds.
    const version = Number((await pool.query('SELECT version FROM auth_version')).rows[0].version);
    await waitFor(async () => {
      const res = await deliver(running.url, transaction('live'), KEY_ONE);
      return res.status === 200 && version > 0;
    }, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 600)); // past a catch-up period: the reload has happened
    expect((await deliver(running.url, transaction('live'), KEY_TWO)).status).toBe(200);
    expect((await get(`${running.adminUrl!}/metrics`)).body).toMatch(/^relay_unreadable_keys 0$/m);

    // The old key is refused from now on; the new one adds keys.
    await expect(addKey(pool, masterKey, 'MCH_one', KEY_LATE.publicId, KEY_LATE.secret)).rejects.toThrow(/not the relay's/);
    await addKey(pool, newKey, 'MCH_one', KEY_LATE.publicId, KEY_LATE.secret);

    // Restart: the old key alone is a start-up error; the new key (with the old one kept as previous) serves everything.
    await expect(startRelay({ databaseUrl: url, masterKey, config: {}, log: noLog })).rejects.toThrow(/not the relay's/);
    const restarted = await relay(url, newKey, [masterKey]);
    for (const key of [KEY_ONE, KEY_TWO, KEY_LATE]) expect((await deliver(restarted.url, transaction('live'), key)).status).toBe(200);
    const onlyNew = await relay(url, newKey);
    expect((await deliver(onlyNew.url, transaction('live'), KEY_TWO)).status).toBe(200);
  });

  it('warns when the master key file can be read by others', () => {
    const dir = tempDir('master-key');
    try {
      const file = join(dir, 'master.key');
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`);
      const warnings: Array<Record<string, unknown>> = [];
      chmodSync(file, 0o644);
      expect(loadMasterKey(file, {}, (w) => warnings.push(w))).toHaveLength(32);
      expect(warnings).toEqual([{ msg: 'master_key_file_too_open', file, mode: '0644', fix: `chmod 600 ${file}` }]);
      chmodSync(file, 0o600);
      loadMasterKey(file, {}, (w) => warnings.push(w));
      expect(warnings).toHaveLength(1);
    } finally {
      removeDir(dir);
    }
  });

  it('two instances with different keys racing on a fresh database: one key is the relay’s, the other is refused', async () => {
    for (let attempt = 0; attempt < 6; attempt++) {
      const url = await cluster().createDatabase();
      const pools = await Promise.all([openPgPool(url, 1), openPgPool(url, 1)]);
      open.push({ close: () => Promise.all(pools.map((p) => p.end())).then(() => undefined) });
      const keys = [randomBytes(32), randomBytes(32)];
      const started = await Promise.allSettled(pools.map((p, i) => assertMasterKey(p, [keys[i]!], true)));
      const ok = started.filter((r) => r.status === 'fulfilled');
      expect(ok, `attempt ${attempt}`).toHaveLength(1);
      const refused = started.find((r) => r.status === 'rejected');
      expect(String(refused?.reason)).toMatch(/not the relay's/);
    }
  });
});
