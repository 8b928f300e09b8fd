/**
 * npm run bench:relay [-- --store sqlite|postgres|all --instances 1|2 --database-url postgres://…]
 *
 * 1. Throughput: signed deliveries posted as fast as they are answered (fixed concurrency, keep-alive)
 *    to a bare node:http server answering 200 and to the relay with durable acknowledgement (2xx only
 *    after COMMIT). With several instances the load is spread evenly over them, as a balancer would.
 *    Rounds alternate (bare, relay, bare, relay, … or bare, SQLite, PG×1, PG×2, … with --store all)
 *    and the medians are compared, so every target sees the same machine load.
 * 2. Latency: deliveries at a steady few hundred per second while a till holds an SSE stream; on
 *    several instances the till listens on another instance than the one receiving the deliveries.
 *    Webhook-to-SSE latency = time from starting the POST to receiving the event.
 *
 * One stdout line per relay target; the last one is
 * {"acceptedPerSec":…,"baselinePerSec":…,"ratio":…,"p50Ms":…,"p99Ms":…,"ackP99Ms":…,"store":…,"instances":…}
 * (ackP99Ms: webhook-to-2xx p99, the commit on the receiving instance alone, so a slow p99Ms can be told
 * apart: a slow commit, i.e. load on the machine, or a slow way from one instance to the other)
 * (with --store all, the PostgreSQL lines add "vsSqlite": their accepted/s over SQLite's in the same round,
 * the median over the rounds: each round's SQLite and PostgreSQL run seconds apart, so a change in the
 * machine's load or its disk's fsync time between rounds moves both alike and leaves their ratio;
 * and "cpuVsSqlite": the CPU a delivery costs on PostgreSQL, its instances' and its database's, over what it costs
 * the relay on SQLite in the same round, the median over the rounds: what each store costs a host in CPU. It
 * scatters about as much as vsSqlite, since the group commit's groups grow and shrink with the load. Left out when the
 * database is given by URL, whose CPU is not this bench's to read.) Every line has "cpuUsPerDelivery", the
 * median over the rounds of its processes' CPU per delivery acknowledged, in microseconds.
 * Options: --rounds (or env BENCH_ROUNDS; default 3); env BENCH_SECONDS per round (3), BENCH_CONCURRENCY
 * (128), BENCH_RATE (300 deliveries/s), BENCH_LATENCY_SECONDS (5).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { CONCURRENCY, LATENCY_SECONDS, latency, median, RATE, signedDelivery, throughput } from './relay-bench-load.js';
import {
  benchDatabase,
  cpuMsOf,
  KEY,
  startBare,
  startPostgres,
  startSqlite,
  type BenchDatabase,
  type Target,
} from './relay-bench-targets.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Deliveries prepared per round: more than the fastest target answers in a round. */
const PER_ROUND = Math.round(SECONDS * 20_000);

function options() {
  const { values } = parseArgs({
    options: {
      store: { type: 'string', default: 'sqlite' },
      instances: { type: 'string', default: '1' },
      'database-url': { type: 'string' },
      rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? '3' },
    },
  });
  const store = values.store;
  const instances = Number(values.instances);
  if (!['sqlite', 'postgres', 'all'].includes(store)) throw new Error('--store: sqlite, postgres or all');
  if (!Number.isInteger(instances) || instances < 1 || instances > 4) throw new Error('--instances: 1 to 4');
  if (store === 'sqlite' && instances !== 1) throw new Error('--store sqlite runs one instance (SQLite has one writer)');
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error('--rounds: 1 to 20');
  return { store, instances, rounds, databaseUrl: values['database-url'] ?? process.env.RELAY_DATABASE_URL };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const label = (t: Target) => (t.store === 'postgres' ? `postgres×${t.instances}` : t.store);
const round2 = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function measureLatency(target: Target): Promise<{ p50Ms: number; p99Ms: number; ackP99Ms: number }> {
  const l = target.latency!;
  let after = l.after;
  if (after < 0) {
    // The SQLite relay's highest sequence, from its metrics on the admin listener (the public /healthz says only ok or not).
    const metrics = await (await request(l.metricsUrl!)).body.text();
    after = Number(/^relay_event_log_last_seq (\d+)$/m.exec(metrics)?.[1] ?? 0);
  }
  const { latencies, acks, lost } = await latency(l.postUrl, l.sseUrl, l.token, after, l.key);
  latencies.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  const p50Ms = percentile(latencies, 50);
  const p99Ms = percentile(latencies, 99);
  const ackP99Ms = percentile(acks, 99);
  const where = l.postUrl === l.sseUrl ? 'same instance' : 'till on another instance';
  console.error(
    `${label(target)} webhook-to-SSE at ${RATE}/s for ${LATENCY_SECONDS}s (${where}): n=${latencies.length} lost=${lost} ` +
      `p50=${p50Ms.toFixed(2)}ms p99=${p99Ms.toFixed(2)}ms max=${latencies[latencies.length - 1]?.toFixed(2)}ms; ` +
      `webhook-to-2xx (the commit alone) p99=${ackP99Ms.toFixed(2)}ms`,
  );
  return { p50Ms, p99Ms, ackP99Ms };
}

async function startTargets(store: string, instances: number, database: BenchDatabase | null) {
  const targets: Target[] = [];
  if (store === 'sqlite' || store === 'all') targets.push(await startSqlite());
  const postmaster = () => database!.postmaster();
  if (store === 'postgres') targets.push(await startPostgres(await database!.url('bench'), instances, postmaster));
  if (store === 'all') {
    targets.push(await startPostgres(await database!.url('bench_one'), 1, postmaster));
    targets.push(await startPostgres(await database!.url('bench_two'), 2, postmaster));
  }
  return targets;
}

async function main(): Promise<void> {
  const { store, instances, rounds: ROUNDS, databaseUrl } = options();
  if (store === 'all' && databaseUrl) throw new Error('--store all makes its own databases: leave out --database-url');
  const database = store === 'sqlite' ? null : await benchDatabase(databaseUrl);
  const bare = await startBare();
  const targets = await startTargets(store, instances, database);
  try {
    const forBaseline = Array.from({ length: 5_000 }, () => signedDelivery('base', KEY));
    await throughput(bare.urls, forBaseline, 1, true);
    for (const t of targets)
      await throughput(
        t.urls,
        Array.from({ length: 3_000 }, () => signedDelivery(`warm${label(t)}`, KEY)),
        1,
      );
    const baseRounds: number[] = [];
    const rounds = new Map<Target, number[]>(targets.map((t) => [t, []]));
    /** CPU microseconds each delivery cost per round: the target's processes' CPU over the deliveries they acknowledged. */
    const cpuRounds = new Map<Target, number[]>(targets.map((t) => [t, []]));
    for (let r = 0; r < ROUNDS; r++) {
      baseRounds.push(await throughput(bare.urls, forBaseline, SECONDS, true));
      const line = [`round ${r + 1}: bare ${baseRounds[r]!.toFixed(0)}/s`];
      for (const t of targets) {
        const chunk = Array.from({ length: PER_ROUND }, () => signedDelivery(`r${r}${label(t)}`, KEY));
        const cpuBefore = cpuMsOf(t);
        const t0 = performance.now();
        const perSec = await throughput(t.urls, chunk, SECONDS);
        const cpuUs = ((cpuMsOf(t) - cpuBefore) * 1e6) / (perSec * (performance.now() - t0));
        rounds.get(t)!.push(perSec);
        cpuRounds.get(t)!.push(cpuUs);
        line.push(`${label(t)} ${perSec.toFixed(0)}/s (${cpuUs.toFixed(0)} µs CPU each)`);
      }
      console.error(line.join(', '));
    }
    const baselinePerSec = median(baseRounds);
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    console.error(`medians over ${ROUNDS} rounds (concurrency ${CONCURRENCY}; ${cpus().length} CPUs, load average ${load})`);
    const sqliteRounds = targets[0]?.store === 'sqlite' ? rounds.get(targets[0])! : null;
    const vsSqlite = (t: Target) => median(rounds.get(t)!.map((perSec, r) => perSec / sqliteRounds![r]!));
    const sqliteCpu = targets[0]?.store === 'sqlite' ? cpuRounds.get(targets[0])! : null;
    const cpuVsSqlite = (t: Target) => median(cpuRounds.get(t)!.map((us, r) => us / sqliteCpu![r]!));
    for (const t of targets) {
      const acceptedPerSec = median(rounds.get(t)!);
      const { p50Ms, p99Ms, ackP99Ms } = await measureLatency(t);
      console.log(
        JSON.stringify({
          acceptedPerSec: Math.round(acceptedPerSec),
          baselinePerSec: Math.round(baselinePerSec),
          ratio: round2(acceptedPerSec / baselinePerSec, 3),
          p50Ms: round2(p50Ms),
          p99Ms: round2(p99Ms),
          ackP99Ms: round2(ackP99Ms),
          store: t.store,
          instances: t.instances,
          cpuUsPerDelivery: round2(median(cpuRounds.get(t)!), 1),
          ...(t.store === 'postgres' && sqliteRounds ? { vsSqlite: round2(vsSqlite(t), 3) } : {}),
          ...(t.store === 'postgres' && sqliteCpu && database?.postmaster() ? { cpuVsSqlite: round2(cpuVsSqlite(t), 2) } : {}),
        }),
      );
    }
  } finally {
    for (const t of [bare, ...targets]) await t.stop().catch(() => undefined);
    await database?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
