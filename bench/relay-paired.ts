/**
 * npm run bench:relay-paired -- <relay> [<relay> …]
 *
 * Compares relay builds on SQLite with each other and with a bare node:http server, in one process
 * and alternate rounds (bare, A, B, …), so every build sees the same machine load: for A/B work on
 * the relay's speed, where two separate bench:relay runs minutes apart differ by more than the change.
 * A <relay> is a built entry (`relay/dist/cli.js`, or another checkout's), `tsx` for `relay/cli.ts`
 * under tsx, or a node flag to run `relay/dist/cli.js` with (`--max-semi-space-size=32`).
 * Prints per round the deliveries/s of each, then per build the median, its ratio to the bare
 * server's median, the relay process's CPU per delivery (all its threads, from /proc: process-cpu.ts), the bare
 * server's CPU per request in the same rounds, and the one over the other (`cpuVsBare`): the CPU a durable
 * delivery costs, in units of what answering an HTTP request costs on this machine, so it moves with the
 * relay's code and not with the load generator sharing the cores (which moves `ratio`).
 * Options (env): BENCH_ROUNDS (5), BENCH_SECONDS per round (3).
 */
import { median, signedDelivery, throughput } from './relay-bench-load.js';
import { cpuMsOf, KEY, startBare, startSqlite } from './relay-bench-targets.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

function entryArgs(relay: string): string[] {
  if (relay === 'tsx') return ['--import', 'tsx', 'relay/cli.ts'];
  if (relay.startsWith('--')) return [relay, 'relay/dist/cli.js'];
  return [relay];
}

async function main(): Promise<void> {
  const names = process.argv.slice(2).filter((a) => a !== '--');
  if (names.length === 0) throw new Error('Name at least one relay: relay/dist/cli.js, tsx, or a node flag');
  const bare = await startBare();
  const relays = [];
  for (const name of names) relays.push(await startSqlite(entryArgs(name)));
  try {
    const forBare = Array.from({ length: 5_000 }, () => signedDelivery('bare', KEY));
    await throughput(bare.urls, forBare, 1, true);
    for (const [i, r] of relays.entries())
      await throughput(
        r.urls,
        Array.from({ length: 20_000 }, () => signedDelivery(`warm${i}`, KEY)),
        1,
      );
    const bareRounds: number[] = [];
    const bareCpu: number[] = [];
    const perSec = relays.map((): number[] => []);
    const cpu = relays.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      const bareBefore = cpuMsOf(bare);
      const bareStart = performance.now();
      const bareRate = await throughput(bare.urls, forBare, SECONDS, true);
      bareRounds.push(bareRate);
      bareCpu.push(((cpuMsOf(bare) - bareBefore) * 1e6) / (bareRate * (performance.now() - bareStart)));
      for (const [i, r] of relays.entries()) {
        const deliveries = Array.from({ length: Math.round(SECONDS * 20_000) }, () => signedDelivery(`r${round}_${i}`, KEY));
        const before = cpuMsOf(r);
        const t0 = performance.now();
        const rate = await throughput(r.urls, deliveries, SECONDS);
        perSec[i]!.push(rate);
        cpu[i]!.push(((cpuMsOf(r) - before) * 1e6) / (rate * (performance.now() - t0)));
      }
      console.error(
        `round ${round + 1}: bare ${bareRounds[round]!.toFixed(0)}/s, ` +
          names.map((n, i) => `${n} ${perSec[i]![round]!.toFixed(0)}/s`).join(', '),
      );
    }
    const bareMedian = median(bareRounds);
    const bareCpuMedian = median(bareCpu);
    for (const [i, name] of names.entries()) {
      const m = median(perSec[i]!);
      const cpuMedian = median(cpu[i]!);
      console.log(
        JSON.stringify({
          relay: name,
          acceptedPerSec: Math.round(m),
          baselinePerSec: Math.round(bareMedian),
          ratio: Math.round((m / bareMedian) * 1000) / 1000,
          cpuMicrosPerDelivery: Math.round(cpuMedian * 10) / 10,
          bareCpuMicrosPerRequest: Math.round(bareCpuMedian * 10) / 10,
          cpuVsBare: Math.round((cpuMedian / bareCpuMedian) * 100) / 100,
        }),
      );
    }
  } finally {
    for (const t of [bare, ...relays]) await t.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
