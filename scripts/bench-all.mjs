#!/usr/bin/env node
// `npm run bench:all [-- --runs 3] [-- --only takings,dayclose]`: every benchmark in bench/targets.json,
// each run N times (3 by default) one after another, then one table: each figure's target, its median
// over the runs (and every run's value), met or missed. Exit 1 when a target is missed or a bench failed.
// Never part of `npm test`: it takes many minutes, and these machines are shared and noisy, so its
// figures are read on a quiet machine and compared with the targets, not only with the commit before.
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: a whole number from 1');
const config = JSON.parse(readFileSync(join(root, 'bench', 'targets.json'), 'utf8'));
const only = values.only ? values.only.split(',') : null;
const wanted = Object.keys(config.benches).filter((name) => !only || only.includes(name));
for (const name of only ?? []) if (!config.benches[name]) throw new Error(`--only: no bench named ${name} in bench/targets.json`);

/** Every JSON object line a bench printed on stdout. */
function jsonLines(stdout) {
  return stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('{') && line.endsWith('}'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

function runBench(name) {
  const bench = config.benches[name];
  if (!existsSync(join(root, bench.script))) return { error: `${bench.script} is not in this tree` };
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const [command, args] = bench.keyring
    ? [join(root, 'scripts', 'with-keyring.sh'), [tsx, bench.script, ...bench.args]]
    : [tsx, [bench.script, ...bench.args]];
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.status !== 0) return { error: `exit ${result.status ?? result.signal} after ${seconds}s` };
  console.error(`bench:all ${name}: done in ${seconds}s`);
  return { lines: jsonLines(result.stdout) };
}

const matches = (line, where = {}) => Object.entries(where).every(([k, v]) => line[k] === v);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const meets = (value, op, target) =>
  op === '<' ? value < target : op === '<=' ? value <= target : op === '>' ? value > target : value >= target;

const results = new Map(wanted.map((name) => [name, []]));
const failures = new Map();
for (let run = 1; run <= runs; run += 1) {
  for (const name of wanted) {
    console.error(`\nbench:all run ${run}/${runs}: ${name} (load average ${loadavg()[0].toFixed(1)})`);
    const outcome = runBench(name);
    if (outcome.error) failures.set(name, outcome.error);
    else results.get(name).push(outcome.lines);
  }
}

let missed = 0;
const rows = config.targets
  .filter((t) => wanted.includes(t.bench))
  .map((t) => {
    const unit = t.unit ?? '';
    const found = results
      .get(t.bench)
      .map((lines) => lines.filter((l) => matches(l, t.where)).at(-1)?.[t.field])
      .filter((v) => typeof v === 'number');
    if (found.length === 0) {
      missed += 1;
      return [t.figure, `${t.op} ${t.target}${unit}`, failures.get(t.bench) ?? 'no figure', '', 'NOT RUN'];
    }
    const m = median(found);
    const ok = meets(m, t.op, t.target);
    if (!ok) missed += 1;
    return [t.figure, `${t.op} ${t.target}${unit}`, `${m}${unit}`, found.join(' / '), ok ? 'met' : 'MISSED'];
  });

const header = ['figure', 'target', `median of ${runs}`, 'runs', 'result'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));
console.log(
  `${rows.length - missed} met, ${missed} missed or not run (load average now ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')})`,
);
process.exitCode = missed === 0 ? 0 : 1;
