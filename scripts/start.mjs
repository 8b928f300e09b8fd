#!/usr/bin/env node
/**
 * `npm start`: fetch the Electron binary if this is the first launch, build the app with electron-vite, make sure better-sqlite3 exists as a COPY built for
 * the installed Electron (never rebuilt in place: plain Node, the tests and the servers keep using
 * node_modules/better-sqlite3 as npm installed it), then launch Electron with MOMO_SQLITE_BINDING
 * pointing at that copy. The till starts on its embedded TEST sandbox: nothing to configure.
 *
 *   npm start                 build + launch
 *   MOMO_SKIP_BUILD=1 npm start   launch the last build
 *   npm start -- --browser    browser mode: the till in a browser on loopback, TEST only (electron/browser)
 *   npm start -- --browser --print-url   the same, printing the link instead of opening a browser
 * When the Electron binary is missing and cannot be fetched, `npm start` falls back to browser mode.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary, electronDir, electronVersion, missingElectronMessage } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function fail(message) {
  console.error(`\nmomo-till: ${message}\n`);
  process.exit(1);
}

/** The first line of what a failed download printed, without its stack trace. */
function firstErrorLine(output) {
  const lines = output.split('\n').map((line) => line.trim());
  return lines.find((line) => line && !line.startsWith('at ')) ?? 'no reason given';
}

/** Builds the renderer (unless MOMO_SKIP_BUILD) and runs browser mode in this terminal; never returns. */
function browserMode(reason) {
  if (reason)
    console.log(
      `momo-till: ${reason}\nmomo-till: opening the till in browser mode instead (TEST only; the desktop app is the way to run LIVE).`,
    );
  build();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'electron', 'browser', 'cli.ts'), ...args.filter((a) => a !== '--browser')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  // Ctrl+C reaches the child too (same process group): it closes the core, then exits.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

function build() {
  if (process.env.MOMO_SKIP_BUILD) return;
  const built = spawnSync(
    join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite'),
    ['build'],
    { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' },
  );
  if (built.status !== 0) fail('electron-vite build failed (see above)');
}

const args = process.argv.slice(2);
let binary = args.includes('--browser') ? null : electronBinary();
if (args.includes('--browser')) {
  browserMode(null);
} else if (!binary) {
  // `npm install` skips the download (ELECTRON_SKIP_BINARY_DOWNLOAD=1 in CI); fetch it at first launch.
  console.log('momo-till: fetching the Electron binary (first launch only)…');
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, encoding: 'utf8', env });
  binary = electronBinary();
  if (!binary) {
    console.log(`\nmomo-till: ${missingElectronMessage(firstErrorLine(`${install.stderr ?? ''}\n${install.error?.message ?? ''}`))}\n`);
    browserMode('the desktop app cannot start here (no Electron binary).');
  }
}
if (binary) await launchElectron(binary);

async function launchElectron(binary) {
  // 1. better-sqlite3 for Electron, as a cached copy.
  const cacheApp = join(root, 'node_modules', '.cache', 'momo-till', `electron-${electronVersion}-${process.platform}-${process.arch}`);
  const copy = join(cacheApp, 'node_modules', 'better-sqlite3');
  const binding = join(copy, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binding)) {
    console.log(`momo-till: building better-sqlite3 for Electron ${electronVersion} in ${cacheApp} (once)…`);
    rmSync(cacheApp, { recursive: true, force: true });
    mkdirSync(join(cacheApp, 'node_modules'), { recursive: true });
    const source = join(root, 'node_modules', 'better-sqlite3');
    const version = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version;
    cpSync(source, copy, { recursive: true, filter: (src) => !src.startsWith(join(source, 'build')) });
    writeFileSync(
      join(cacheApp, 'package.json'),
      JSON.stringify({ name: 'momo-native-cache', private: true, dependencies: { 'better-sqlite3': version } }),
    );
    const { rebuild } = await import('@electron/rebuild');
    try {
      await rebuild({
        buildPath: cacheApp,
        electronVersion,
        arch: process.arch,
        force: true,
        onlyModules: ['better-sqlite3'],
        mode: 'sequential',
      });
    } catch (error) {
      rmSync(cacheApp, { recursive: true, force: true });
      fail(
        `could not build better-sqlite3 for Electron ${electronVersion}: ${error.message}\n(needs the Electron headers or a prebuilt binary: internet access once, and a C++ toolchain if no prebuilt exists)`,
      );
    }
    if (!existsSync(binding)) fail(`the rebuild finished but ${binding} is missing`);
  }

  // 2. Build main, preload and renderer.
  build();

  // 3. Launch.
  const child = spawn(binary, ['.'], { cwd: root, stdio: 'inherit', env: { ...process.env, MOMO_SQLITE_BINDING: binding } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}
