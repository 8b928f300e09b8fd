/**
 * The documented interface of the two servers, exactly as a script or a newcomer types it. npm 11
 * writes its banner (the script's name and command) to stdout before the script starts, unless it
 * is quiet: `npm run -s sandbox -- …` and `npm run -s relay -- …` print the ready JSON as the FIRST
 * stdout line, and plain `npm run sandbox|relay -- …` prints only npm's banner before it. Stopping
 * npm with SIGTERM stops the server too (no orphan holding the port).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
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

type Run = { child: ChildProcess; readyLine: string; linesBefore: string[] };

/** Start `npm run [-s] <script> -- <args>`; resolve with its first JSON stdout line and the lines before it. */
function npmRun(quiet: boolean, script: string, args: string[]): Promise<Run> {
  const child = spawn('npm', ['run', ...(quiet ? ['-s'] : []), script, '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const linesBefore: string[] = [];
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`npm run ${script}: no JSON stdout line within 30 s`)), 30_000);
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return void linesBefore.push(line);
      lines.removeAllListeners('line');
      clearTimeout(timer);
      resolve({ child, readyLine: line, linesBefore });
    });
    child.once('exit', (code) => reject(new Error(`npm run ${script} exited early with ${code}`)));
  });
}

/** npm's own banner, all that may come before the ready line when npm is not quiet. */
function npmBanner(script: string, args: string[]): string[] {
  const command = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[script];
  return ['', `> momo-till@0.1.0 ${script}`, `> ${command} ${args.join(' ')}`, ''];
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

const MODES = [
  ['npm run -s', true],
  ['npm run', false],
] as const;

describe('npm run sandbox / npm run relay', () => {
  it.each(MODES)(
    "%s sandbox: only npm's own banner (none when quiet) comes before the ready JSON; SIGTERM to npm stops it",
    async (_, quiet) => {
      const args = ['--port', '0', '--time-scale', '0.01', '--data', tempDir()];
      const { child, readyLine, linesBefore } = await npmRun(quiet, 'sandbox', args);
      expect(linesBefore).toEqual(quiet ? [] : npmBanner('sandbox', args));
      const ready = JSON.parse(readyLine) as { ready: boolean; baseUrl: string; merchantId: string; keys: { test: { publicId: string } } };
      expect(ready.ready).toBe(true);
      expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready.merchantId).toMatch(/^MCH_[A-Za-z0-9]{12}$/);
      expect(ready.keys.test.publicId).toMatch(/^pk_test_/);
      const port = Number(new URL(ready.baseUrl).port);
      expect(await portAccepts(port)).toBe(true);
      child.kill('SIGTERM');
      expect(await stopsListening(port, 30_000)).toBe(true); // an orphan would never stop; a loaded machine can take a while
    },
  );

  it.each(MODES)(
    "%s relay: only npm's own banner (none when quiet) comes before the ready JSON; SIGTERM to npm stops it",
    async (_, quiet) => {
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
      const args = ['--port', '0', '--data', join(dir, 'data'), '--config', config];
      const { child, readyLine, linesBefore } = await npmRun(quiet, 'relay', args);
      expect(linesBefore).toEqual(quiet ? [] : npmBanner('relay', args));
      const ready = JSON.parse(readyLine) as { ready: boolean; url: string };
      expect(ready).toEqual({ ready: true, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
      const port = Number(new URL(ready.url).port);
      expect(await portAccepts(port)).toBe(true);
      child.kill('SIGTERM');
      expect(await stopsListening(port, 30_000)).toBe(true); // an orphan would never stop; a loaded machine can take a while
    },
  );
});
