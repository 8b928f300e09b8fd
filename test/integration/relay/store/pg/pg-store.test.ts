/**
 * The PostgreSQL store against a real PostgreSQL 15 (a throwaway cluster): per-merchant gapless
 * numbering under concurrent commits from two instances, the same delivery racing on both stored
 * once, secrets sealed at rest, CLI changes seen by a running instance (the versioned schema:
 * pg-migrations.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { ApplyOutcome, TenantDelivery } from '../../../../../relay/store/index.js';
import { openPgPool, PgStore, loadMasterKey, addKey, addMerchant, createToken, revokeToken } from '../../../../../relay/store/pg/index.js';
import { hashRelayToken } from '../../../../../relay/ops/index.js';
import { closeAfterEach } from '../../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { sleep } from '../../../../support/wait-for.js';

const SECRET = `sk_live_${'PgStoreSecret000000001'}`;

function delivery(merchantId: string, reference: string, environment: 'test' | 'live' = 'live'): TenantDelivery {
  return {
    merchantId,
    reference,
    clientReference: `till:${reference}`,
    environment,
    keyId: environment === 'live' ? 'pk_live_PgStore0001' : 'pk_test_PgStore0001',
    receivedAt: new Date().toISOString(),
    webhookCreatedAt: '2026-11-22T10:00:00.000Z',
    transactionJson: JSON.stringify({ reference, status: 'SUCCESS', amount: '12.50' }),
    timestamp: 1_800_000_000,
    arrivedAt: 0,
  };
}

function submit(store: PgStore, d: TenantDelivery): Promise<ApplyOutcome> {
  return new Promise((resolve, reject) => store.enqueue(d, { settle: (err, outcome) => (err ? reject(err) : resolve(outcome!)) }));
}

describePg('relay on PostgreSQL: the store', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();
  const noLog = () => {};

  async function setUp(merchants = ['MCH_one']) {
    const url = await cluster().createDatabase();
    const masterKey = randomBytes(32);
    const pool = await openPgPool(url, 2);
    open.push({ close: () => pool.end() });
    for (const m of merchants) await addMerchant(pool, m);
    return { url, masterKey, pool };
  }

  async function instance(url: string, masterKey: Buffer, catchUpMs = 200) {
    const store = await PgStore.open({ databaseUrl: url, masterKey, maxBatch: 64, catchUpMs, log: noLog });
    open.push(store);
    return store;
  }

  it('numbers each merchant gaplessly in commit order while two instances commit at once; a racing repeat is stored once', async () => {
    const { url, masterKey } = await setUp(['MCH_one', 'MCH_two']);
    const a = await instance(url, masterKey);
    const b = await instance(url, masterKey);
    const outcomes: Array<Promise<ApplyOutcome>> = [];
    const shared: string[] = [];
    for (let i = 0; i < 300; i++) {
      const merchant = i % 3 === 0 ? 'MCH_two' : 'MCH_one';
      outcomes.push(submit(i % 2 ? a : b, delivery(merchant, `R${i}`)));
      if (i % 10 === 0) {
        // The same delivery on both instances in the same turn.
        shared.push(`R${i}`);
        outcomes.push(submit(i % 2 ? b : a, delivery(merchant, `R${i}`)));
      }
      if (i % 50 === 0) await sleep(1);
    }
    const results = await Promise.all(outcomes);
    expect(results.filter((o) => o.kind === 'accepted')).toHaveLength(300);
    expect(results.filter((o) => o.kind === 'duplicate')).toHaveLength(shared.length);

    for (const [merchant, count] of [
      ['MCH_one', 200],
      ['MCH_two', 100],
    ] as const) {
      const rows = await a.rowsAfter(merchant, 0, 1000);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(new Set(rows.map((r) => r.reference)).size).toBe(count);
      expect(await b.lastSeq(merchant)).toBe(count);
    }
    // A reference is one event per (merchant, environment): test and live may share it, merchants never see each other's.
    expect((await submit(a, delivery('MCH_one', 'R1', 'test'))).kind).toBe('accepted');
    expect(await a.byReference('MCH_two', 'R1')).toBeUndefined();
    const stored = await a.byReference('MCH_one', 'R1', 'live');
    expect(stored?.environment).toBe('live');
    const conflict = await submit(b, {
      ...delivery('MCH_one', 'R1'),
      transactionJson: JSON.stringify({ reference: 'R1', status: 'FAILED' }),
    });
    expect(conflict).toMatchObject({ kind: 'conflict', seq: stored!.seq });
  });

  it('keeps service secrets sealed at rest and refuses to start with another master key', async () => {
    const { url, masterKey, pool } = await setUp();
    await addKey(pool, masterKey, 'MCH_one', 'pk_live_PgStore0001', SECRET);
    const { rows } = await pool.query<{ secret_sealed: Buffer }>('SELECT secret_sealed FROM service_keys');
    expect(rows[0]!.secret_sealed.includes(Buffer.from(SECRET))).toBe(false);
    expect(rows[0]!.secret_sealed.includes(Buffer.from('PgStoreSecret'))).toBe(false);
    const store = await instance(url, masterKey);
    expect(store.findKey('pk_live_PgStore0001')).toEqual({ publicId: 'pk_live_PgStore0001', merchantId: 'MCH_one', secret: SECRET });
    await expect(PgStore.open({ databaseUrl: url, masterKey: randomBytes(32), maxBatch: 8, log: noLog })).rejects.toThrow(
      /This master key is not the relay's/,
    );
    expect(() => loadMasterKey(undefined, {})).toThrow(/needs a master key.*RELAY_MASTER_KEY/);
    expect(() => loadMasterKey(undefined, { RELAY_MASTER_KEY: Buffer.alloc(16).toString('base64') })).toThrow(/32 bytes/);
  });

  it('sees tokens created and revoked from outside within the catch-up period', async () => {
    const { url, masterKey, pool } = await setUp();
    const store = await instance(url, masterKey);
    let changes = 0;
    store.watch({ committed: () => {}, advanced: () => {}, authChanged: () => changes++ }, () => []);
    const token = await createToken(pool, 'MCH_one', 'front-counter');
    const hash = hashRelayToken(token);
    const deadline = Date.now() + 2_000;
    while (!store.findTill(hash) && Date.now() < deadline) await sleep(20);
    expect(store.findTill(hash)).toEqual({ merchantId: 'MCH_one', label: 'front-counter', tokenHash: hash });
    expect(await revokeToken(pool, 'MCH_one', 'front-counter')).toBe(true);
    while (store.findTill(hash) && Date.now() < deadline + 2_000) await sleep(20);
    expect(store.findTill(hash)).toBeUndefined();
    expect(changes).toBeGreaterThanOrEqual(2);
  });
});
