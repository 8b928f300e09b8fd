/**
 * `npm start` where the Electron binary cannot be downloaded: one message, no stack trace, one remedy
 * (`npm start` again) with the offline routes, ELECTRON_MIRROR or a zip in Electron's cache folder; then
 * it falls back to browser mode (its sale is walked by test/browser/npm-start-browser-mode.test.ts).
 * The download is pointed at a closed loopback port, so this never fetches anything; where the
 * binary is installed, npm start would launch the app instead, and these are skipped by name.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary, electronDir, electronZipInCache } from '../../../scripts/electron-binary.mjs';
import { removeDir, tempDir } from '../../support/temp-dir.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const installed = electronBinary() !== null;
let cache: string;
let closedMirror: string;
let dataDir: string;

beforeAll(async () => {
  cache = tempDir('electron-cache');
  dataDir = tempDir('start-data');
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  closedMirror = `http://127.0.0.1:${port}/`;
});

afterAll(() => {
  removeDir(cache);
  removeDir(dataDir);
});

/** Runs `node <script>` with Electron's downloads pointed at the closed port and a private cache. */
function run(script: string, extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_MIRROR: closedMirror, electron_config_cache: cache, ...extraEnv };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [script], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * Runs `node <script> --print-url` as run() does, but in the background (browser mode, the fallback, never
 * returns): the output up to the first line matching `until`, then the launcher and its child are stopped.
 */
async function runUntil(script: string, until: RegExp): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ELECTRON_MIRROR: closedMirror,
    electron_config_cache: cache,
    MOMO_SKIP_BUILD: '1',
    MOMO_DATA_DIR: dataDir,
  };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const child = spawn(process.execPath, [script, '--print-url'], { cwd: ROOT, env, detached: true });
  let output = '';
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no line matching ${until} within 60 s:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (until.test(output)) {
          clearTimeout(timer);
          done();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', () => {
        clearTimeout(timer);
        if (until.test(output)) done();
        else fail(new Error(`the launcher exited before a line matching ${until}:\n${output}`));
      });
    });
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-(child.pid as number), 'SIGINT');
      const late = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(late);
    }
  }
  return output;
}

describe(`npm start without the Electron binary${installed ? ' (skipped: the binary is installed here, npm start would launch the app)' : ''}`, () => {
  it.skipIf(installed)(
    'prints one message with no stack trace, npm start as the remedy and the offline routes, then opens browser mode',
    async () => {
      const output = await runUntil(join(ROOT, 'scripts', 'start.mjs'), /opening the till in browser mode instead/);
      expect(output).not.toMatch(/^\s+at /m); // no stack trace
      expect(output).not.toContain('install.js'); // not the very download that failed
      expect(output.match(/binary is not installed/g)).toHaveLength(1);
      expect(output).toMatch(/momo-till: the Electron \d+\.\d+\.\d+ binary is not installed \(its download failed: .*fetch failed\)\./);
      expect(output).toContain('Install it with `npm start`');
      expect(output).toContain('ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npm start');
      const { zip, path } = electronZipInCache({ env: { electron_config_cache: cache } });
      expect(output).toContain(`offline: first copy ${zip}`);
      expect(output).toContain(path);
      expect(output).toContain('momo-till: the desktop app cannot start here (no Electron binary).');
    },
    90_000,
  );

  it.skipIf(installed)("names the very file Electron's installer reads from its cache before downloading", () => {
    const { path } = electronZipInCache({ env: { electron_config_cache: cache, ELECTRON_MIRROR: closedMirror } });
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'not really a zip');
    // @electron/get logs its cache lookup under DEBUG: a hit means it read our file (and, finding it
    // corrupt, fell back to the closed mirror: no download either way).
    const { status, output } = run(join(electronDir, 'install.js'), { DEBUG: '@electron/get:*' });
    expect(status).toBe(1);
    expect(output).toContain('Cache hit');
    expect(output).not.toContain('Cache miss');
  });
});
