/**
 * Durability on PostgreSQL under failure, with real processes and a real server:
 * - kill -9 one of two relay instances in the middle of a burst: the service's retries go to the
 *   other, and every acknowledged delivery is stored, once, in a gap-free log;
 * - a fast shutdown and restart of PostgreSQL in the middle of a burst: deliveries get 503 and
 *   /healthz fails while it is down, the relay reconnects by itself, and nothing acknowledged is lost.
 */
import { afterEach, expect, it } from 'vitest';
import { relayPageSchema, type RelayEvent } from '../../../../../shared/relay-wire.js';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { sleep } from '../../../../support/wait-for.js';
import { deliver, get, LIVE_KEY, spawnRelay, SseClient, transaction, type PostResult, type RelayProcess } from '../../helpers.js';
import { seedPgTenant } from '../../stores.js';

/** Reads a merchant's whole log through one relay. */
async function readLog(url: string, token: string): Promise<RelayEvent[]> {
  const events: RelayEvent[] = [];
  let after = 0;
  for (;;) {
    const page = relayPageSchema.parse((await get(`${url}/v1/transactions?after=${after}&limit=500`, token)).json);
    events.push(...page.items);
    after = page.nextAfter;
    if (!page.hasMore) return events;
  }
}

/**
 * Sends `count` deliveries `concurrency` at a time, each retried (as the service does, faster) until
 * acknowledged; `target(index, attempt)` picks the relay. Calls `midway` once half are acknowledged.
 */
async function burst(options: {
  count: number;
  concurrency: number;
  target: (index: number, attempt: number) => string;
  midway: () => Promise<void>;
}): Promise<{ acknowledged: string[]; refused: number[] }> {
  const acknowledged: string[] = [];
  const refused: number[] = [];
  let next = 0;
  let midwayRun: Promise<void> | null = null;
  const worker = async () => {
    while (next < options.count) {
      const index = next++;
      const tx = transaction('live');
      for (let attempt = 0; ; attempt++) {
        let res: PostResult;
        try {
          res = await deliver(options.target(index, attempt), tx, LIVE_KEY);
        } catch {
          res = { status: -1, body: '', json: null };
        }
        if (res.status === 200) break;
        refused.push(res.status);
        if (attempt > 300) throw new Error(`delivery ${tx.reference} never acknowledged (last ${res.status})`);
        await sleep(50);
      }
      acknowledged.push(tx.reference);
      if (acknowledged.length === Math.floor(options.count / 2)) midwayRun ??= options.midway();
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  await midwayRun;
  return { acknowledged, refused };
}

function expectComplete(events: RelayEvent[], acknowledged: string[]): void {
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
  const references = events.map((e) => e.transaction.reference);
  expect(new Set(references).size).toBe(references.length);
  expect(new Set(references)).toEqual(new Set(acknowledged));
}

describePg('relay on PostgreSQL: crashes and outages', () => {
  const cluster = usePgCluster();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('kill -9 of one instance during a burst: every acknowledged delivery is there, once, without gaps', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const env = { RELAY_MASTER_KEY: masterKey.toString('base64') };
    const relays: RelayProcess[] = [];
    for (let i = 0; i < 2; i++) relays.push(await spawnRelay(['--port', '0', '--database-url', databaseUrl], env));
    cleanups.push(async () => {
      for (const r of relays) if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGTERM');
      await Promise.all(relays.map((r) => r.exited));
    });
    const [victim, survivor] = relays as [RelayProcess, RelayProcess];
    const { acknowledged, refused } = await burst({
      count: 300,
      concurrency: 12,
      // First attempts alternate; a retry goes to the other instance, as a load balancer would send it.
      target: (index, attempt) => ((index + attempt) % 2 === 0 ? victim.url : survivor.url),
      async midway() {
        victim.proc.kill('SIGKILL');
        await victim.exited;
      },
    });
    expect(victim.proc.signalCode).toBe('SIGKILL');
    expect(acknowledged).toHaveLength(300);
    expect(refused.filter((s) => s === -1).length).toBeGreaterThan(0); // the victim's connections were refused
    expectComplete(await readLog(survivor.url, token), acknowledged);
  });

  it('fast shutdown and restart of PostgreSQL during a burst: 503s and a failing /healthz, then recovery, nothing acknowledged lost', async () => {
    const { databaseUrl, masterKey, token } = await seedPgTenant(cluster());
    const logs: Array<Record<string, unknown>> = [];
    const relay: RunningRelay = await startRelay({ databaseUrl, masterKey, config: {}, catchUpMs: 250, log: (l) => logs.push(l) });
    cleanups.push(() => relay.close());
    const sse = await SseClient.connect(`${relay.url}/v1/events`, token);
    cleanups.push(async () => sse.close());
    let healthDuringOutage = 0;
    let healthBodyDuringOutage = '';
    const { acknowledged, refused } = await burst({
      count: 240,
      concurrency: 8,
      target: () => relay.url,
      async midway() {
        await cluster().stopFast();
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const health = await get(`${relay.url}/healthz`);
          healthDuringOutage = health.status;
          healthBodyDuringOutage = health.body;
          if (healthDuringOutage === 503) break;
          await sleep(50);
        }
        await sleep(500);
        await cluster().start();
      },
    });
    expect(healthDuringOutage).toBe(503);
    // Only the verdict: before, the body named the database's address and the driver's text (connect ECONNREFUSED 127.0.0.1:…).
    expect(JSON.parse(healthBodyDuringOutage)).toEqual({ ok: false });
    expect(refused.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(logs.some((l) => l.msg === 'database_unreachable')).toBe(true);
    // Recovered: healthy again, everything acknowledged is stored once, and the open stream got it all in order.
    const deadline = Date.now() + 10_000;
    while ((await get(`${relay.url}/healthz`)).status !== 200 && Date.now() < deadline) await sleep(100);
    expect((await get(`${relay.url}/healthz`)).json).toEqual({ ok: true });
    const events = await readLog(relay.url, token);
    expectComplete(events, acknowledged);
    // The till's stream outlived the outage (its reads failed and were retried by the catch-up).
    await sse.waitFor((c) => c.events.length >= events.length, 10_000);
    expect(sse.events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
  });
});
