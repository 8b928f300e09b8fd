#!/usr/bin/env node
// `npm run mutate`: mutation-test every module of scripts/mutate-modules.mjs, one Stryker run each
// (its own tests, its own 90% floor); `npm run mutate -- <module> [<module>…]` runs only those.
// Ends with a table of scores; exits non-zero when any module is below its floor or fails to run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODULES } from './mutate-modules.mjs';

const root = new URL('..', import.meta.url).pathname;
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((name) => !(name in MODULES));
if (unknown.length > 0) {
  console.error(`Unknown module ${unknown.join(', ')}: choose from ${Object.keys(MODULES).join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(MODULES);

/** Killed (and timed out) over everything that could be tested, from Stryker's JSON report. */
function score(name) {
  const file = join(root, 'reports', 'mutation', `${name}.json`);
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const counts = { killed: 0, survived: 0, noCoverage: 0, other: 0 };
  for (const f of Object.values(report.files)) {
    for (const m of f.mutants) {
      if (m.status === 'Killed' || m.status === 'Timeout') counts.killed += 1;
      else if (m.status === 'Survived') counts.survived += 1;
      else if (m.status === 'NoCoverage') counts.noCoverage += 1;
      else counts.other += 1;
    }
  }
  const valid = counts.killed + counts.survived + counts.noCoverage;
  return { ...counts, valid, percent: valid === 0 ? 100 : (100 * counts.killed) / valid };
}

const rows = [];
let failed = 0;
for (const name of names) {
  console.log(`\n=== mutate ${name}: ${MODULES[name].mutate.join(', ')}`);
  const result = spawnSync(join(root, 'node_modules', '.bin', 'stryker'), ['run', 'stryker.config.mjs'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MUTATE_MODULE: name },
  });
  if (result.status !== 0) failed += 1;
  const s = score(name);
  rows.push(
    s
      ? `| ${name} | ${s.valid} | ${s.killed} | ${s.survived} | ${s.noCoverage} | ${s.percent.toFixed(1)}% | ${result.status === 0 ? 'ok' : 'FAIL'} |`
      : `| ${name} | - | - | - | - | - | FAIL (no report) |`,
  );
}
console.log('\n| module | mutants | killed | survived | no coverage | score | floor 90% |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
process.exit(failed > 0 ? 1 : 0);
