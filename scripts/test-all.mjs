#!/usr/bin/env node
// `npm test`: type-check, lint, build the renderer, then every vitest project (unit, integration,
// browser, electron, faults) under a private D-Bus session with a real unlocked gnome-keyring.
// Ends with one line: "N passed, N failed[, N skipped]" summed over every test run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const steps = [];
let failedSteps = 0;

function run(label, command, args, extraEnv = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...extraEnv } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const ok = result.status === 0;
  steps.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds}s)`);
  if (!ok) failedSteps += 1;
  return ok;
}

/** `run`, with the output held and printed at the end (for steps that run side by side). */
function runQuietly(label, command, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      steps.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds}s)`);
      if (!ok) failedSteps += 1;
      resolve(ok);
    });
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);

// The static checks read the sources only: they run side by side, each one's output printed whole when
// it ends, so two never interleave.
await Promise.all([
  runQuietly('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  runQuietly('lint', bin('eslint'), ['.', '--max-warnings=0']),
  runQuietly('import boundaries (dependency-cruiser)', bin('depcruise'), [
    '--config',
    '.dependency-cruiser.cjs',
    'electron',
    'relay',
    'sandbox',
    'shared',
    'renderer',
    'scripts',
    'bench',
  ]),
  runQuietly('format (prettier --check)', bin('prettier'), ['--check', '.', '--log-level=warn']),
]);
// The build after them: electron-vite writes a temporary copy of its config beside it, which the lint and
// the format check would otherwise find half-written.
const built = run('build (electron-vite)', bin('electron-vite'), ['build']);

// One vitest run per group, in two lanes side by side: each lane runs its groups one after another.
// The browser group mostly waits on the screens and the simulated service, the integration group on
// servers and processes, so the two lanes share the (small) machine without starving each other. Within
// a group, the timing-sensitive files still run one at a time. The till's integration files (integration-till) follow
// the browser group in its lane, so that the two lanes take about as long as each other. The timing and faults groups run last, alone:
// they check schedules against the wall clock and time kill -9s, lost packets and deadlines. MOMO_TEST_LANES=1 runs every group one after
// another (to read one group's log on its own).
const reportDir = mkdtempSync(join(tmpdir(), 'momo-vitest-'));
const screenLane = built ? [['browser', 'electron'], ['integration-till']] : [['integration-till']];
const serverLane = [['unit'], ['integration']];
const alone = [['timing'], ...(built ? [['faults']] : [])];
if (!built) steps.push('SKIP browser, electron and faults tests: the build failed');
const lanes = process.env.MOMO_TEST_LANES === '1' ? [[...serverLane, ...screenLane]] : [serverLane, screenLane];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

/** One vitest run for these projects, its output streamed line by line behind the group's name. */
function runGroup(projects) {
  const label = `tests: ${projects.join(' + ')} (vitest, real keychain)`;
  const tag = `[${projects.join('+')}] `;
  const report = join(reportDir, `${projects.join('-')}.json`);
  const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  for (const project of projects) args.push('--project', project);
  const command = join(root, 'scripts', 'with-keyring.sh');
  console.log(`\n=== ${label}: ${command} ${[bin('vitest'), ...args].join(' ')}`);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, [bin('vitest'), ...args], { cwd: root, env: process.env });
    const prefixed = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop();
        for (const line of lines) out.write(`${tag}${line}\n`);
      });
      stream.on('end', () => rest && out.write(`${tag}${rest}\n`));
    };
    prefixed(child.stdout, process.stdout);
    prefixed(child.stderr, process.stderr);
    child.on('error', (error) => console.error(`${tag}${error.message}`));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      steps.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${label} (${seconds}s)`);
      if (code !== 0) failedSteps += 1;
      readReport(projects, report);
      resolve();
    });
  });
}

function readReport(projects, report) {
  if (!existsSync(report)) {
    console.error(`No vitest report was written for ${projects.join(' + ')}.`);
    failed += 1;
    return;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  failed += json.numFailedTests ?? 0;
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A test file that failed to load has no test results: count it as a failure.
  for (const file of json.testResults ?? []) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    if (file.status === 'failed' && (file.assertionResults ?? []).length === 0) {
      failed += 1;
      failures.push({ where, name: '(the file did not load)', message: file.message ?? '' });
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed')
        failures.push({ where, name: test.fullName ?? test.title, message: (test.failureMessages ?? []).join('\n') });
    }
  }
}

await Promise.all(
  lanes.map(async (lane) => {
    for (const projects of lane) await runGroup(projects);
  }),
);
for (const projects of alone) await runGroup(projects);
rmSync(reportDir, { recursive: true, force: true });

// The failures again, short, just above the summary: a CI log is often read from its tail only.
if (failures.length > 0) {
  console.log(`\n=== failed tests (${failures.length})`);
  for (const f of failures) {
    const lines = stripVTControlCharacters(f.message)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    console.log(`- ${f.where} > ${f.name}`);
    for (const line of lines.slice(0, 4)) console.log(`    ${line.slice(0, 300)}`);
  }
}

console.log('\n=== summary');
for (const line of steps) console.log(line);
if (failedSteps > 0 && failed === 0) failed = failedSteps; // a failed type-check/lint/build fails the run
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedSteps > 0 || failed > 0 ? 1 : 0);
