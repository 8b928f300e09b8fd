/**
 * npm run bench:neighbours [-- --relay tsx|relay/dist/cli.js]
 *
 * A hosted relay (PostgreSQL 15, two instances, relay/docs/proxies.md's nginx config with TLS on loopback:
 * neighbours-relay.ts) shared by several calm merchants and one noisy one. In every phase each calm
 * merchant gets NEIGHBOURS_RATE signed deliveries a second (through the proxy) while its till holds its
 * event stream (through the proxy); measured for the calm merchants: webhook-to-SSE (from starting the
 * POST to the event on the till's stream) and failed deliveries (not answered 200, or answered but never
 * on the till's stream). Phases, each NEIGHBOURS_SECONDS long:
 * - quiet: no noisy merchant; each delivery through the proxy to instance A, the till's stream through
 *   the proxy from instance B (the hosted path's own figure: the way between instances included);
 * - deliveries: the noisy merchant floods deliveries of its own (neighbours-noise.ts bounds each load; it runs
 *   in a process of its own, neighbours-noisy-process.ts);
 * - reads: its tills ask for the largest pages of its log, many at once;
 * - streams: its tills open event streams to their limit and stop reading them;
 * - pages: it holds owner pages open (phone links made as it goes); one calm merchant then opens its own.
 * In the noisy phases everything goes through the two-instance config. The relay's memory: the peak RSS
 * of each instance during each phase, sampled every 100 ms.
 *
 * One stdout line per phase, {"phase":…,"p50Ms":…,"p99Ms":…,"ackP99Ms":…,"failed":…,"peakRssMb":[…],…} (ackP99Ms:
 * webhook-to-200, the commit alone, to tell a slow commit from a slow way to the till; cpuMs: the CPU each
 * part used in the phase, {relays:[A,B],postgres,nginx,bench,noisy}, which scatters far less than latency on a
 * shared machine; loopLagMaxMs, loopLagP99Ms, gcMs and connectionsShed: each instance's event-loop delay,
 * garbage collection and shed connections in the phase, neighbours-loop.ts; benchLoopLagMaxMs and
 * benchLoopLagP99Ms: the same for the bench's own loop, on which the calm merchants' times are taken, so a
 * pause of the whole machine shows there as well as in the relays), then the
 * summary {"phase":"all","worstP99Ms":…,"failed":…,"peakRssMb":…,"peakRssSumMb":…,"seconds":…}.
 * Options (env): NEIGHBOURS_CALM (20 calm merchants), NEIGHBOURS_RATE (5 a second each: a hundred a second
 * together, each merchant within its delivery share even when all its deliveries reach one instance, as in the
 * quiet phase), NEIGHBOURS_SECONDS (8), NEIGHBOURS_PHASES (some phases only, e.g. quiet,deliveries),
 * NEIGHBOURS_CPU_PROF (a folder: each instance's and the noisy merchant's V8 CPU profile), and the noisy
 * merchant's bounds in neighbours-noise.ts.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { request, type Agent } from 'undici';
import { cpuMeter } from './neighbours-cpu.js';
import { loopMeter } from './neighbours-loop.js';
import { calmPhase, percentile, type CalmResult } from './neighbours-calm.js';
import { heldPage, phoneCookie, type Noise, type NoiseSummary } from './neighbours-noise.js';
import { noisyProcess } from './neighbours-noisy-process.js';
import { rssSampler, startHostedRelay, type HostedRelay } from './neighbours-relay.js';
import { tlsAgent } from './neighbours-tls.js';
import { signedDelivery } from './relay-bench-load.js';

const CALM = Number(process.env.NEIGHBOURS_CALM ?? 20);
const RATE = Number(process.env.NEIGHBOURS_RATE ?? 5);
const SECONDS = Number(process.env.NEIGHBOURS_SECONDS ?? 8);
/** Only these phases (a quicker look at one); all of them by default. */
const ONLY = process.env.NEIGHBOURS_PHASES?.split(',').filter(Boolean) ?? null;
/** Events in the noisy merchant's log before the phases, so that its pages and streams are full ones. */
const NOISY_LOG = 1_000;

const { values } = parseArgs({ options: { relay: { type: 'string', default: 'tsx' } } });
// NEIGHBOURS_CPU_PROF=<dir>: each instance writes a V8 CPU profile there when it stops (node --cpu-prof).
const profile = process.env.NEIGHBOURS_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.NEIGHBOURS_CPU_PROF] : [];
const entry = [...profile, ...(values.relay === 'tsx' ? ['--import', 'tsx', 'relay/cli.ts'] : [values.relay])];

const round2 = (x: number) => Math.round(x * 100) / 100;
/** The bench's own event loop: a calm delivery's times are taken on it, so its delays would be counted as the relay's. */
const benchLoop = monitorEventLoopDelay({ resolution: 1 });
benchLoop.enable();

/** Posts `count` of the merchant's deliveries straight to an instance, a few at a time. */
async function seed(url: string, merchant: HostedRelay['merchants']['noisy'], count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < count) {
        const d = signedDelivery(`seed_${merchant.id}`, merchant.key);
        const res = await request(`${url}/v1/webhooks`, { method: 'POST', headers: d.headers, body: d.body });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`seeding the noisy merchant's log: ${res.statusCode}`);
      }
    }),
  );
}

/** The shares in force, as instance A's /metrics (on its admin listener) states them (`relay_limit{limit="…"} n`), for the run's record. */
async function limitsInForce(url: string): Promise<string> {
  const metrics = await (await request(`${url}/metrics`)).body.text();
  const limits = [...metrics.matchAll(/^relay_limit\{limit="([^"]+)"\} (\S+)$/gm)].map((m) => `${m[1]}=${m[2]}`);
  return limits.length > 0 ? limits.join(' ') : 'none stated in /metrics';
}

type Phase = {
  name: string;
  /** Where the calm deliveries go and where their tills listen. */
  post: 'shared' | 'toA';
  stream: 'shared' | 'toB';
  /** Starts the noisy merchant's behaviour (and returns once it holds what it opens). */
  noise?: () => Promise<Noise>;
  /** While the noise runs, after the calm merchants' phase: anything else to check (a calm owner page). */
  during?: () => Promise<NoiseSummary>;
};

type Line = { failed: number; p99Ms: number; peakRssMb: number[] };

/** The phases in order, on a running relay; the calm merchants' connections, and the noisy merchant in its own process. */
function phases(relay: HostedRelay, calmAgent: Agent, noisy: ReturnType<typeof noisyProcess>): Phase[] {
  const { calm } = relay.merchants;
  const shared = relay.shared.url;
  return [
    { name: 'quiet', post: 'toA', stream: 'toB' },
    { name: 'deliveries', post: 'shared', stream: 'shared', noise: () => noisy.start('deliveries') },
    { name: 'reads', post: 'shared', stream: 'shared', noise: () => noisy.start('reads') },
    { name: 'streams', post: 'shared', stream: 'shared', noise: () => noisy.start('streams') },
    {
      name: 'pages',
      post: 'shared',
      stream: 'shared',
      noise: () => noisy.start('pages'),
      during: async () => {
        const cookie = await phoneCookie(shared, calmAgent, calm[0]!.tokens[0]!, 'Calm phone');
        if (typeof cookie === 'number') return { otherPage: cookie };
        const page = await heldPage(relay.shared, relay.ca, cookie);
        page.socket.destroy();
        return { otherPage: page.status };
      },
    },
  ];
}

/** One phase: the noise started, the calm merchants measured, the noise stopped; its line printed. */
async function runPhase(
  phase: Phase,
  calmOnce: (post: string, stream: string) => Promise<CalmResult>,
  relay: HostedRelay,
  memory: ReturnType<typeof rssSampler>,
  cpu: ReturnType<typeof cpuMeter>,
  loop: ReturnType<typeof loopMeter>,
): Promise<Line> {
  const t0 = performance.now();
  cpu.since();
  await loop.since();
  benchLoop.reset();
  const base = { shared: relay.shared.url, toA: relay.toA.url, toB: relay.toB.url };
  const noise = await phase.noise?.();
  const result = await calmOnce(base[phase.post], base[phase.stream]);
  const during = (await phase.during?.()) ?? {};
  const noisySummary = (await noise?.stop()) ?? {};
  const line = {
    phase: phase.name,
    sent: result.sent,
    failed: result.refused + result.lost,
    refused: result.refused,
    lost: result.lost,
    p50Ms: round2(percentile(result.latencies, 50)),
    p99Ms: round2(percentile(result.latencies, 99)),
    maxMs: round2(percentile(result.latencies, 100)),
    ackP99Ms: round2(percentile(result.acks, 99)),
    reconnects: result.reconnects,
    streamsRefused: result.streamsRefused,
    peakRssMb: memory.peaks(),
    cpuMs: cpu.since(),
    ...(await loop.phase()),
    benchLoopLagMaxMs: round2(benchLoop.max / 1e6),
    benchLoopLagP99Ms: round2(benchLoop.percentile(99) / 1e6),
    ...Object.fromEntries(Object.entries(noisySummary).map(([k, v]) => [`noisy_${k}`, v])),
    ...during,
    seconds: round2((performance.now() - t0) / 1000),
  };
  console.error(`${phase.name} (load average ${loadavg()[0]!.toFixed(1)}): ${JSON.stringify(line)}`);
  console.log(JSON.stringify(line));
  return line;
}

async function main(): Promise<void> {
  const started = performance.now();
  const relay = await startHostedRelay(CALM, entry);
  const memory = rssSampler(relay.pids);
  const calmAgent = tlsAgent(relay.ca, 64);
  const { url, host, port } = relay.shared;
  const noisy = noisyProcess({ shared: { url, host, port }, ca: relay.ca.toString('base64'), merchant: relay.merchants.noisy });
  const cursors = new Map<string, number>();
  try {
    await seed(relay.seeder.url, relay.merchants.noisy, NOISY_LOG);
    await relay.seeder.stop();
    const idleMb = memory.now().map(Math.round);
    console.error(
      `relay up (${CALM} calm merchants at ${RATE}/s each, phases of ${SECONDS}s); idle RSS ${idleMb.join(' + ')} MB; ` +
        `load average ${loadavg()[0]!.toFixed(1)}`,
    );
    console.error(`limits: ${await limitsInForce(relay.admin[0]!)}`);
    const calmOnce = (post: string, stream: string, seconds = SECONDS) =>
      calmPhase({
        merchants: relay.merchants.calm,
        postBase: post,
        streamBase: stream,
        agent: calmAgent,
        seconds,
        ratePerMerchant: RATE,
        cursors,
      });
    // Warm-up, not measured: connections, TLS sessions and the relays' first requests on each path.
    await calmOnce(relay.toA.url, relay.toB.url, 1);
    await calmOnce(relay.shared.url, relay.shared.url, 1);
    memory.peaks();
    const cpu = cpuMeter({ ...relay.cpuRoots, noisy: noisy.pid });
    const loop = loopMeter(relay.admin);
    const lines: Line[] = [];
    const chosen = phases(relay, calmAgent, noisy).filter((p) => ONLY === null || ONLY.includes(p.name));
    for (const phase of chosen) lines.push(await runPhase(phase, calmOnce, relay, memory, cpu, loop));
    const peaks = relay.pids.map((_, i) => Math.max(...lines.map((l) => l.peakRssMb[i]!)));
    console.log(
      JSON.stringify({
        phase: 'all',
        worstP99Ms: Math.max(...lines.map((l) => l.p99Ms)),
        failed: lines.reduce((sum, l) => sum + l.failed, 0),
        idleRssMb: idleMb,
        peakRssMb: Math.max(...peaks),
        peakRssSumMb: Math.max(...lines.map((l) => l.peakRssMb.reduce((a, b) => a + b, 0))),
        seconds: round2((performance.now() - started) / 1000),
        loadAverage: round2(loadavg()[0]!),
      }),
    );
  } finally {
    memory.stop();
    noisy.close();
    await calmAgent.close().catch(() => undefined);
    await relay.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
