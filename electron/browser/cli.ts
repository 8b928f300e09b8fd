/**
 * `npm start` in browser mode (scripts/start.mjs runs it when Electron cannot start, or with --browser):
 *   --print-url   print the launch link instead of opening a browser (also the case without a display)
 * Prints the link and how to stop; Ctrl+C (SIGINT) or SIGTERM closes the core cleanly. A second start
 * on the same data folder opens the browser on the running till instead.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { desktopDataDir, hasDisplay, launchUrlOfRunning, openBrowser, startBrowserMode } from './index.js';

const root = join(import.meta.dirname, '..', '..');
const printOnly = process.argv.includes('--print-url') || !hasDisplay();
const dataDir = desktopDataDir();
const rendererDir = join(root, 'out', 'renderer');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function show(url: string): ChildProcess | null {
  if (printOnly) {
    console.log(`momo-till: open this link in a browser (it works once): ${url}`);
    return null;
  }
  console.log(`momo-till: opening the till in your browser (${url.slice(0, url.indexOf('?'))})`);
  return openBrowser(url, dataDir);
}

const running = await launchUrlOfRunning(dataDir);
if (running) {
  console.log('momo-till: the till is already running in browser mode.');
  show(running);
  process.exit(0);
}

let mode: Awaited<ReturnType<typeof startBrowserMode>>;
try {
  mode = await startBrowserMode({ dataDir, rendererDir, version });
} catch (error) {
  console.error(`\nmomo-till: browser mode cannot start: ${(error as Error).message}\n`);
  process.exit(1);
}
console.log(`momo-till: browser mode (TEST only), data folder ${dataDir}`);
const browser = show(mode.server.launchUrl());
console.log(`momo-till: the till runs at ${mode.server.origin}; press Ctrl+C here to stop it.`);
console.log('momo-till: ready');

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  console.log('\nmomo-till: closing the till…');
  void mode.close().then(
    () => {
      if (browser && browser.exitCode === null) browser.kill();
      console.log('momo-till: closed.');
      process.exit(0);
    },
    (error: unknown) => {
      console.error(`momo-till: closing failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
