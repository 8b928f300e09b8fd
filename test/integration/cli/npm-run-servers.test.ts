/**
 * The documented interface of the two servers, exactly as a script or a newcomer types it:
 * `npm run sandbox -- …` and `npm run relay -- …` print their ready JSON as the FIRST stdout line
 * (no npm banner), and stopping npm with SIGTERM stops the server too (no orphan holding the port).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { tempDirs } from '../../support/temp-dir.js';

const root = new URL('../../..', import.meta.url).pathname;
const dirs = tempDirs('npm-run');
const tempDir = dirs.make;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  dirs.removeAll();
});

/** Start `npm run <script> -- <args>` and resolve with its first stdout line. */
function npmRun(script: string, args: string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn('npm', ['run', script, '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`npm run ${script}: no stdout line within 30 s`)), 30_000);
    lines.once('line', (firstLine) => {
      clearTimeout(timer);
      resolve({ child, firstLine });
    });
    child.once('exit', (code) => reject(new Error(`npm run ${script} exited early with ${code}`)));
  });
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopsListening(port: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!(await portAccepts(port))) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('npm run sandbox / npm run relay', () => {
  it('npm run sandbox prints the ready JSON first and stops with npm', async () => {
    const { child, firstLine } = await npmRun('sandbox', ['--port', '0', '--time-scale', '0.01', '--data', tempDir()]);
    const ready = JSON.parse(firstLine) as { ready: boolean; baseUrl: string; merchantId: string; keys: { test: { publicId: string } } };
    expect(ready.ready).toBe(true);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.merchantId).toMatch(/^MCH_[A-Za-z0-9]{12}$/);
    expect(ready.keys.test.publicId).toMatch(/^pk_test_/);
    const port = Number(new URL(ready.baseUrl).port);
    expect(await portAccepts(port)).toBe(true);
    child.kill('SIGTERM');
    expect(await stopsListening(port, 30_000)).toBe(true); // an orphan would never stop; a loaded machine can take a while
  });

  it('npm run relay prints the ready JSON first and stops with npm', async () => {
    const dir = tempDir();
    const config = join(dir, 'relay.json');
    writeFileSync(
      config,
      JSON.stringify({
        keys: [{ publicId: 'pk_test_NpmRun0001', secret: `sk_test_${'NpmRunSecret00000001'}` }],
        tills: [],
        signedPayload: 'body',
      }),
    );
    const { child, firstLine } = await npmRun('relay', ['--port', '0', '--data', join(dir, 'data'), '--config', config]);
    const ready = JSON.parse(firstLine) as { ready: boolean; url: string };
    expect(ready).toEqual({ ready: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const port = Number(new URL(ready.url).port);
    expect(await portAccepts(port)).toBe(true);
    child.kill('SIGTERM');
    expect(await stopsListening(port, 30_000)).toBe(true); // an orphan would never stop; a loaded machine can take a while
  });
});
