/**
 * What carries a commit on one instance to a till's stream on another: PostgreSQL's NOTIFY, sent by
 * relay_commit and delivered at COMMIT, not the periodic catch-up. Both instances run with a catch-up
 * period of ten minutes, so an event that reaches the other instance's stream within the test's few
 * seconds was woken by the NOTIFY. It fails if the NOTIFY is missing, goes to another channel, names
 * another merchant or sequence, or is sent before the rows are visible (the woken stream would move
 * its cursor past rows it could not read yet, and the event would never come). The 50 ms target
 * itself is measured by `npm run bench:relay -- --store postgres --instances 2`, not here.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgPool, addKey, addMerchant, createToken } from '../../../../../relay/store/pg/index.js';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { deliver, SseClient, transaction } from '../../helpers.js';

const KEY = { publicId: 'pk_live_Wake00001', secret: `sk_live_${'WakeSecret0000000000001'}` };
const OTHER_KEY = { publicId: 'pk_live_Wake00002', secret: `sk_live_${'WakeSecret0000000000002'}` };
/** Longer than the test: the catch-up never runs while it does (only its first read at start). */
const NO_CATCH_UP_MS = 600_000;

describePg('relay on PostgreSQL: a commit on one instance wakes the other through NOTIFY', () => {
  const cluster = usePgCluster();
  let pool: pg.Pool;
  const instances: RunningRelay[] = [];
  const streams: SseClient[] = [];
  let token: string;
  let url: string;

  beforeAll(async () => {
    url = await cluster().createDatabase();
    const masterKey = randomBytes(32);
    pool = await openPgPool(url, 2);
    await addMerchant(pool, 'MCH_wake');
    await addKey(pool, masterKey, 'MCH_wake', KEY.publicId, KEY.secret);
    await addMerchant(pool, 'MCH_other');
    await addKey(pool, masterKey, 'MCH_other', OTHER_KEY.publicId, OTHER_KEY.secret);
    token = await createToken(pool, 'MCH_wake', 'front-counter');
    for (let i = 0; i < 2; i++)
      instances.push(await startRelay({ databaseUrl: url, masterKey, config: {}, catchUpMs: NO_CATCH_UP_MS, log: () => {} }));
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    for (const r of instances) await r.close();
    await pool?.end();
  });

  it('pushes each event committed on instance A to the till streaming from instance B, without waiting for a catch-up', async () => {
    const [a, b] = instances as [RunningRelay, RunningRelay];
    const c = await SseClient.connect(`${b.url}/v1/events?after=0`, token);
    streams.push(c);
    expect(c.status).toBe(200);
    await c.waitFor((x) => x.messages.some((m) => m.event === 'hello'));
    const sent: string[] = [];
    // One at a time: each is answered (committed) before the next, so each needs its own wake-up on B.
    for (let i = 0; i < 5; i++) {
      const tx = transaction('live');
      sent.push(tx.reference);
      expect((await deliver(a.url, tx, KEY)).status).toBe(200);
      // Another merchant's commit in between: its NOTIFY must not move this merchant's stream.
      expect((await deliver(a.url, transaction('live'), OTHER_KEY)).status).toBe(200);
      await c.waitFor((x) => x.events.length === i + 1, 5_000);
    }
    expect(c.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(c.events.map((e) => e.transaction.reference)).toEqual(sent);
  });

  it('sends the NOTIFY on relay_events as "<merchant> <last seq>", delivered only once the commit is visible', async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const seen: Array<{ payload: string; visible: number }> = [];
    const reads: Array<Promise<void>> = [];
    listener.on('notification', (n) => {
      const payload = n.payload ?? '';
      // What a woken instance does: read the merchant's log at once.
      reads.push(
        pool
          .query<{ n: string }>("SELECT count(*) AS n FROM events WHERE merchant_id = 'MCH_wake'")
          .then(({ rows }) => void seen.push({ payload, visible: Number(rows[0]!.n) })),
      );
    });
    try {
      await listener.query('LISTEN relay_events');
      const tx = transaction('live');
      expect((await deliver(instances[0]!.url, tx, KEY)).status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await Promise.all(reads);
      expect(seen).toEqual([{ payload: 'MCH_wake 6', visible: 6 }]);
    } finally {
      await listener.end();
    }
  });
});
