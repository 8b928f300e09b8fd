/**
 * Several relay instances on one PostgreSQL database, serving two merchants: every stream sees every
 * event of its own merchant, in order, exactly once, and nothing of the other's; a token revoked
 * from the CLI ends its streams on every instance; a dropped LISTEN connection costs latency, not
 * events; stream caps per token and per merchant; one merchant's reads held at their share while another's
 * deliveries are answered.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { relayPageSchema } from '../../../../../shared/relay-wire.js';
import { openPgPool, addKey, addMerchant, createToken, revokeToken } from '../../../../../relay/store/pg/index.js';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { sleep, waitFor } from '../../../../support/wait-for.js';
import { deliver, get, SseClient, transaction, type PostResult } from '../../helpers.js';

const KEYS = {
  MCH_alpha: { publicId: 'pk_live_Alpha0001', secret: `sk_live_${'AlphaSecret00000000001'}` },
  MCH_beta: { publicId: 'pk_live_Beta00001', secret: `sk_live_${'BetaSecret000000000001'}` },
} as const;
type Merchant = keyof typeof KEYS;
const MERCHANTS = Object.keys(KEYS) as Merchant[];

describePg('relay on PostgreSQL: two instances, two merchants', () => {
  const cluster = usePgCluster();
  let pool: pg.Pool;
  let url: string;
  let masterKey: Buffer;
  const instances: RunningRelay[] = [];
  const tokens = {} as Record<Merchant, string>;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    url = await cluster().createDatabase();
    masterKey = randomBytes(32);
    pool = await openPgPool(url, 2);
    for (const m of MERCHANTS) {
      await addMerchant(pool, m);
      await addKey(pool, masterKey, m, KEYS[m].publicId, KEYS[m].secret);
      tokens[m] = await createToken(pool, m, 'front-counter');
    }
    for (let i = 0; i < 2; i++) {
      instances.push(
        await startRelay({
          databaseUrl: url,
          masterKey,
          config: { maxStreamsPerToken: 3, maxStreamsPerMerchant: 5 },
          catchUpMs: 300,
          log: () => {},
        }),
      );
    }
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    for (const r of instances) await r.close();
    await pool?.end();
  });

  async function stream(instance: RunningRelay, token: string, query = '') {
    const c = await SseClient.connect(`${instance.url}/v1/events${query}`, token);
    streams.push(c);
    if (c.status === 200) await c.waitFor((x) => x.messages.some((m) => m.event === 'hello'));
    return c;
  }

  it('each stream sees every event of its own merchant, in order, exactly once, and never the other merchant', async () => {
    const watchers = [] as Array<{ merchant: Merchant; client: SseClient }>;
    for (const m of MERCHANTS) for (const r of instances) watchers.push({ merchant: m, client: await stream(r, tokens[m]) });
    const sent: Record<Merchant, string[]> = { MCH_alpha: [], MCH_beta: [] };
    const posts = [];
    for (let i = 0; i < 80; i++) {
      const m = MERCHANTS[i % 2]!;
      const tx = transaction('live');
      sent[m].push(tx.reference);
      posts.push(deliver(instances[Math.floor(i / 2) % 2]!.url, tx, KEYS[m]));
      if (i % 8 === 7) await sleep(5);
    }
    const answers = await Promise.all(posts);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    for (const { merchant, client } of watchers) {
      await client.waitFor((c) => c.events.length >= 40, 10_000);
      await sleep(100);
      const events = client.events;
      expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(new Set(events.map((e) => e.transaction.reference))).toEqual(new Set(sent[merchant]));
    }

    // Paging and lookups are the merchant's own: the other's references answer 404, not 403.
    const [alpha, beta] = [sent.MCH_alpha[0]!, sent.MCH_beta[0]!];
    const page = relayPageSchema.parse((await get(`${instances[1]!.url}/v1/transactions?after=0&limit=500`, tokens.MCH_alpha)).json);
    expect(page.items.map((e) => e.transaction.reference).sort()).toEqual([...sent.MCH_alpha].sort());
    expect((await get(`${instances[0]!.url}/v1/transactions/${alpha}`, tokens.MCH_alpha)).status).toBe(200);
    expect((await get(`${instances[0]!.url}/v1/transactions/${beta}`, tokens.MCH_alpha)).status).toBe(404);
    expect((await get(`${instances[1]!.url}/v1/transactions/${alpha}`, tokens.MCH_beta)).status).toBe(404);
    const alphaCount = await get(`${instances[0]!.url}/v1/transactions?after=41`, tokens.MCH_alpha);
    expect(alphaCount.status).toBe(409); // alpha's log ends at 40: the cursor is its own merchant's
  });

  it('stores and pushes once a delivery racing on both instances', async () => {
    const c = await stream(instances[0]!, tokens.MCH_beta, '?after=40');
    const tx = transaction('live');
    const answers = await Promise.all([...instances, ...instances].map((r) => deliver(r.url, tx, KEYS.MCH_beta)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((a) => (a.json as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => (a.json as { seq: number }).seq))).toEqual(new Set([41]));
    const marker = transaction('live');
    expect((await deliver(instances[1]!.url, marker, KEYS.MCH_beta)).status).toBe(200);
    await c.waitFor((x) => x.events.some((e) => e.transaction.reference === marker.reference), 5_000);
    expect(c.events.map((e) => e.transaction.reference)).toEqual([tx.reference, marker.reference]);
  });

  it('loses nothing when the LISTEN connections are cut: the catch-up brings the events', async () => {
    const c = await stream(instances[1]!, tokens.MCH_alpha, '?after=40');
    await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN relay_auth'");
    const tx = transaction('live');
    expect((await deliver(instances[0]!.url, tx, KEYS.MCH_alpha)).status).toBe(200);
    await c.waitFor((x) => x.events.some((e) => e.transaction.reference === tx.reference), 5_000);
    expect(c.events.map((e) => e.seq)).toEqual([41]);
  });

  it("does not hold one merchant's commits back behind another's: beta commits while alpha's counter is locked", async () => {
    // Stand-in for a merchant whose commits are slow (a burst, a long transaction): its counter row is held.
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT last_seq FROM merchants WHERE id = 'MCH_alpha' FOR UPDATE");
      const alphaAnswer = deliver(instances[0]!.url, transaction('live'), KEYS.MCH_alpha);
      const betaAnswers = await Promise.all([0, 1, 0, 1].map((i) => deliver(instances[i]!.url, transaction('live'), KEYS.MCH_beta)));
      expect(betaAnswers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      let alphaDone = false;
      void alphaAnswer.then(() => (alphaDone = true));
      await sleep(50);
      expect(alphaDone).toBe(false); // still waiting for its merchant's counter, not refused
      await holder.query('ROLLBACK');
      expect((await alphaAnswer).status).toBe(200);
    } finally {
      holder.release();
    }
  });

  it('caps streams per token and per merchant on each instance (429, other merchants unaffected)', async () => {
    const extra = await createToken(pool, 'MCH_beta', 'back-office');
    // The main beta token already has two streams on instance 0 (the tests above): one more reaches its cap of 3.
    expect((await stream(instances[0]!, tokens.MCH_beta, '?after=1000')).status).toBe(200);
    expect((await stream(instances[0]!, tokens.MCH_beta, '?after=1000')).status).toBe(429);
    await sleep(1_500); // the new token reaches every instance
    // Another till of the same merchant: streams 4 and 5 of the merchant's cap of 5, then refused.
    expect((await stream(instances[0]!, extra, '?after=1000')).status).toBe(200);
    expect((await stream(instances[0]!, extra, '?after=1000')).status).toBe(200);
    expect((await stream(instances[0]!, extra, '?after=1000')).status).toBe(429);
    expect((await stream(instances[1]!, extra, '?after=1000')).status).toBe(200);
    expect((await stream(instances[0]!, tokens.MCH_alpha, '?after=1000')).status).toBe(200);
  });

  it("holds one till token's reads at its share: the rest get 429 with Retry-After, and another merchant's deliveries are answered meanwhile", async () => {
    // An instance with a small database pool: each read in progress holds one of its connections, which deliveries need too.
    const narrow = await startRelay({
      databaseUrl: url,
      masterKey,
      config: { maxReadsInFlightPerToken: 2, maxReadsInFlightPerMerchant: 3 },
      pg: { poolSize: 4 },
      log: () => {},
    });
    for (const _ of [1, 2]) expect((await deliver(narrow.url, transaction('live'), KEYS.MCH_alpha)).status).toBe(200);
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      // Stand-in for slow reads (big pages, a busy database): what a resumed page reads first is locked.
      await holder.query('LOCK TABLE event_retention IN ACCESS EXCLUSIVE MODE');
      const answers: PostResult[] = [];
      const reads = Array.from({ length: 12 }, () =>
        get(`${narrow.url}/v1/transactions?after=1&limit=500`, tokens.MCH_alpha).then((r) => answers.push(r)),
      );
      await waitFor(() => answers.length >= 10, 10_000, 'the reads past the share answered');
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(429));
      expect(answers[0]!.headers?.['retry-after']).toBe('1');
      expect(answers[0]!.body).toMatch(/maxReadsInFlightPerToken 2/);
      expect(narrow.metrics.merchantReadsInFlight.get({ merchant: 'MCH_alpha' })).toBe(2);
      // Of alpha's two, one holds a database connection and the other waits for it (maxDatabaseReadsPerMerchant 1).
      await waitFor(() => narrow.metrics.databaseReads.get({ state: 'waiting' }) === 1, 5_000, "alpha's second read waiting");
      expect(narrow.metrics.databaseReads.get({ state: 'running' })).toBe(1);
      // Beta, on the same instance while alpha's two reads wait: every delivery stored, its own page read.
      const betaAnswers = await Promise.all([1, 2, 3, 4].map(() => deliver(narrow.url, transaction('live'), KEYS.MCH_beta)));
      expect(betaAnswers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect((await get(`${narrow.url}/v1/transactions?after=0&limit=5`, tokens.MCH_beta)).status).toBe(200);
      expect(answers).toHaveLength(10);
      await holder.query('COMMIT');
      await Promise.all(reads);
      expect(answers.slice(10).map((a) => a.status)).toEqual([200, 200]);
      expect(narrow.metrics.merchantReadsInFlight.get({ merchant: 'MCH_alpha' })).toBe(0);
      expect(narrow.metrics.databaseReads.get({ state: 'waiting' })).toBe(0);
      const text = await narrow.metrics.render();
      expect(text).toContain('relay_limit{limit="maxReadsInFlightPerToken"} 2');
      expect(text).toMatch(/relay_merchant_till_refusals_total\{merchant="MCH_alpha",reason="reads_token_busy"\} 10/);
    } finally {
      holder.release();
      await narrow.close();
    }
  });

  it('ends a revoked token’s streams on every instance within a couple of seconds', async () => {
    const token = await createToken(pool, 'MCH_alpha', 'to-revoke');
    await sleep(1_500);
    const onA = await stream(instances[0]!, token, '?after=1000');
    const onB = await stream(instances[1]!, token, '?after=1000');
    expect([onA.status, onB.status]).toEqual([200, 200]);
    const started = Date.now();
    expect(await revokeToken(pool, 'MCH_alpha', 'to-revoke')).toBe(true);
    await onB.waitFor((c) => c.closed, 3_000).catch(() => undefined);
    await onA.waitFor((c) => c.closed, 3_000).catch(() => undefined);
    expect([onA.closed, onB.closed]).toEqual([true, true]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await get(`${instances[1]!.url}/v1/transactions`, token)).status).toBe(401);
  });
});
