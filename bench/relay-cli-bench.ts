/**
 * npm run bench:relay-cli [-- --runs 7 --database-url postgres://…]: the time of one relay CLI call
 * (`merchant list`, against a throwaway PostgreSQL 15 cluster with 3 merchants unless a URL is given),
 * the built file (`node relay/dist/cli.js`, built first by `npm run build:relay`, so the figure is the
 * current source's) against the TypeScript entry
 * (`node --import tsx relay/cli.ts`). Target: under 300 ms for the built file. The last line is
 * {"builtMedianMs":…,"builtRuns":[…],"tsxMedianMs":…,"tsxRuns":[…],"builtCpuMedianMs":…,"tsxCpuMedianMs":…,"loadavg":…}
 * (CPU time, user + system, through /usr/bin/time when present).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { benchDatabase } from './relay-bench-targets.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, 'database-url': { type: 'string' } } });
const runs = Number(values.runs);

/** CPU time (user + system) is measured through GNU time when present: on a loaded machine it says more than the wall clock. */
const GNU_TIME = existsSync('/usr/bin/time');
const cpuMs: Record<string, number[]> = { built: [], tsx: [] };

function timed(args: string[], env: NodeJS.ProcessEnv, kind?: 'built' | 'tsx'): Promise<number> {
  const start = performance.now();
  const [file, argv] = GNU_TIME ? ['/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { env }, (err, _stdout, stderr) => {
      if (err) return reject(err);
      const m = /cpu ([0-9.]+) ([0-9.]+)\s*$/.exec(stderr);
      if (m && kind) cpuMs[kind]!.push(Math.round((Number(m[1]) + Number(m[2])) * 1000));
      resolve(Math.round(performance.now() - start));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await new Promise<void>((resolve, reject) =>
  execFile(process.execPath, ['scripts/build-relay.mjs'], (err, _stdout, stderr) =>
    err ? reject(new Error(`build:relay: ${stderr}`)) : resolve(),
  ),
);
const db = await benchDatabase(values['database-url']);
try {
  const env = { ...process.env, RELAY_DATABASE_URL: await db.url('relay_cli_bench') };
  for (const id of ['MCH_a', 'MCH_b', 'MCH_c']) await timed(['relay/dist/cli.js', 'merchant', 'add', '--id', id], env).catch(() => 0);
  const built: number[] = [];
  const tsx: number[] = [];
  for (let i = 0; i < runs; i++) {
    built.push(await timed(['relay/dist/cli.js', 'merchant', 'list'], env, 'built'));
    if (i < Math.min(runs, 3)) tsx.push(await timed(['--import', 'tsx', 'relay/cli.ts', 'merchant', 'list'], env, 'tsx'));
  }
  console.log(
    JSON.stringify({
      builtMedianMs: median(built),
      builtRuns: built,
      tsxMedianMs: median(tsx),
      tsxRuns: tsx,
      ...(GNU_TIME ? { builtCpuMedianMs: median(cpuMs.built!), tsxCpuMedianMs: median(cpuMs.tsx!) } : {}),
      loadavg: loadavg()[0],
    }),
  );
} finally {
  await db.stop();
}
