/** The script interface: `npm run -s sandbox -- --port 0 ...` prints the ready line first, logs JSON to stderr, stops on SIGTERM. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { api } from './helpers.js';
import { removeDir, tempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait-for.js';

const dataDir = tempDir('sandbox');
const spawned: ChildProcess[] = [];
afterAll(() => {
  // a failed assertion must not leave a simulator running: stop any group still alive
  for (const child of spawned) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  removeDir(dataDir);
});

/** `npm run -s sandbox -- …` as a user types it, or the script's own command (`tsx sandbox/cli.ts`) to see its exit code. */
function run(args: string[], via: 'npm' | 'tsx' = 'tsx') {
  const [cmd, pre] = via === 'npm' ? ['npm', ['run', '--silent', 'sandbox', '--']] : ['node_modules/.bin/tsx', ['sandbox/cli.ts']];
  // detached: its own process group, so the npm case can be stopped whole (npm's `sh -c` does not pass SIGTERM on)
  const child = spawn(cmd as string, [...(pre as string[]), ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  spawned.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (l) => stdout.push(l));
  createInterface({ input: child.stderr }).on('line', (l) => stderr.push(l));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout, stderr, exited };
}

async function firstLine(r: ReturnType<typeof run>): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (r.stdout.length === 0) {
    if (Date.now() > deadline) throw new Error(`no ready line; stderr: ${r.stderr.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return r.stdout[0] as string;
}

async function stop(child: ChildProcess, exited: Promise<number | null>, group = false) {
  if (group) process.kill(-(child.pid as number), 'SIGTERM');
  else child.kill('SIGTERM');
  return exited;
}

describe('npm run sandbox', () => {
  it('prints the ready JSON as its first stdout line, serves, logs JSON to stderr and stops on SIGTERM', async () => {
    const r = run(['--port', '0', '--time-scale', '0.01', '--data', dataDir]);
    const line = await firstLine(r);
    const ready = JSON.parse(line);
    expect(Object.keys(ready)).toEqual(['ready', 'baseUrl', 'merchantId', 'keys']);
    expect(ready).toEqual({
      ready: true,
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      merchantId: expect.stringMatching(/^MCH_[A-Za-z0-9]{12}$/),
      keys: {
        test: { publicId: expect.stringMatching(/^pk_test_/), secret: expect.stringMatching(/^sk_test_/) },
        live: { publicId: expect.stringMatching(/^pk_live_/), secret: expect.stringMatching(/^sk_live_/) },
      },
    });
    const res = await api(ready.baseUrl, '/v1/accounts/resolve?msisdn=233241234567&network=MTN', {
      creds: { merchantId: ready.merchantId, secret: ready.keys.test.secret },
    });
    expect(res.status).toBe(200);
    const code = await stop(r.child, r.exited);
    expect(code).toBe(0);
    const logs = r.stderr.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    expect(logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['sandbox_started', 'request', 'signal', 'sandbox_stopped']));
    // secrets never reach the logs
    expect(r.stderr.join('\n')).not.toContain(ready.keys.test.secret);
    expect(r.stderr.join('\n')).not.toContain(ready.keys.live.secret);
    expect(r.stdout).toHaveLength(1);

    // through npm as the README says, on the same data dir: the same demo merchant and keys, first line exact
    const again = run(['--port', '0', '--data', dataDir], 'npm');
    const readyAgain = JSON.parse(await firstLine(again));
    expect(readyAgain.merchantId).toBe(ready.merchantId);
    expect(readyAgain.keys).toEqual(ready.keys);
    await stop(again.child, again.exited, true);
    await waitFor(() => again.stderr.some((l) => l.includes('"sandbox_stopped"')), 5_000, 'the clean stop');
  });

  it('refuses bad arguments with a clear message', async () => {
    const r = run(['--time-scale', 'fast', '--data', dataDir]);
    expect(await r.exited).toBe(2);
    expect(r.stderr.join('\n')).toMatch(/--time-scale must be a positive number/);
    expect(r.stdout).toEqual([]);
    const timeout = run(['--delivery-timeout-ms', '0', '--data', dataDir]);
    expect(await timeout.exited).toBe(2);
    expect(timeout.stderr.join('\n')).toMatch(/--delivery-timeout-ms must be a positive number/);
  });
});
