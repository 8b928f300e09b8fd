/**
 * `npm start` on a machine without the Electron binary, headless, through the launcher itself
 * (scripts/start.mjs, not a test entry point): the Electron download fails (a mirror that refuses), the
 * launcher falls back to browser mode and prints the launch link (--print-url), Chromium opens it and a
 * sandbox sale is PAID. Settings says what browser mode leaves to the desktop app (LIVE, the installed
 * printer) and an unsaved edit gets the browser's own question on close. A second start opens the
 * running till; Ctrl+C closes the core cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../../scripts/electron-binary.mjs';
import { RUNTIME_FILE } from '../../electron/browser/index.js';
import { launchBrowser, ROOT } from '../browser-bridge/harness.js';
import { chooseOwnerPin, closeWindow, goTo, retype, sale, text } from '../browser-bridge/cashier.js';
import { BROWSER_MODE_NO_LIVE } from '../../shared/shell.js';

type Launch = { child: ChildProcess; output: () => string; line(pattern: RegExp): Promise<RegExpMatchArray> };

function npmStart(dataDir: string): Launch {
  // Where Electron is installed the fallback cannot happen by itself: ask for browser mode.
  const args = electronBinary() ? ['--browser', '--print-url'] : ['--print-url'];
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      MOMO_DATA_DIR: dataDir,
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      ...(existsSync(join(ROOT, 'out', 'renderer', 'index.html')) ? { MOMO_SKIP_BUILD: '1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.on('exit', () => {
    for (const wake of waiters) wake();
  });
  return {
    child,
    output: () => output,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            waiters.delete(check);
            resolve(match);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`npm start exited (${child.exitCode}) without ${pattern}:\n${output}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

const LINK = /open this link in a browser \(it works once\): (http:\/\/127\.0\.0\.1:\d+\/\?launch=[\w-]+)/;

let browser: Browser;
let dataDir: string;
let first: Launch;
let page: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'momo-npm-start-'));
  browser = await launchBrowser();
  first = npmStart(dataDir);
});

afterAll(async () => {
  if (first?.child.exitCode === null) first.child.kill('SIGKILL');
  await browser?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start without the Electron binary', () => {
  it('falls back to browser mode, prints the link and how to stop, and the till takes a sandbox sale', async () => {
    const [, url] = await first.line(LINK);
    await first.line(/press Ctrl\+C here to stop it/);
    expect(first.output()).toMatch(/browser mode/);
    page = await (await browser.newContext({ viewport: { width: 1024, height: 600 } })).newPage();
    const before = await page.evaluate(() => history.length);
    await page.goto(url as string);
    // The token left the address bar and the history: the launch link and its redirect make one entry, '/'.
    expect(page.url()).not.toContain('launch=');
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await sale(page, '1000', '0241234567', 'PAID');
    // The link worked once: opened again, it is refused.
    const again = await (await browser.newContext()).newPage();
    const refused = await again.goto(url as string);
    expect(refused?.status()).toBe(403);
  });

  it('Settings says LIVE and the installed printer belong to the desktop app, and unsaved edits get the browser’s own question', async () => {
    await goTo(page, 'Settings');
    await chooseOwnerPin(page, '2468', 'Settings');
    expect(await text(page, 'browser-mode-no-live')).toBe(BROWSER_MODE_NO_LIVE);
    expect(await page.getByRole('button', { name: /^Switch to LIVE/ }).count()).toBe(0);
    const printing = await text(page, 'browser-printing-note');
    expect(printing).toMatch(/cannot print by itself to a printer installed on this computer/);
    expect(printing).toMatch(/browser's print dialog, or a network printer/);
    const form = page.getByTestId('receipt-form');
    expect(await form.getByLabel('A printer installed on this computer').count()).toBe(0);
    expect(await form.getByLabel('Network thermal printer').count()).toBe(1);
    // No shell to ask: closing the tab with an unsaved edit gets Chromium's own question.
    await retype(page, 'till-name', 'Back counter');
    const question = await closeWindow(page);
    expect(question?.type()).toBe('beforeunload');
    await question?.dismiss();
    expect(page.isClosed()).toBe(false);
    expect(await page.inputValue('#till-name')).toBe('Back counter');
  });

  it('a second npm start opens the running till with a fresh link', async () => {
    const second = npmStart(dataDir);
    await second.line(/already running in browser mode/);
    const [, url] = await second.line(LINK);
    await new Promise<void>((ok) => (second.child.exitCode !== null ? ok() : second.child.on('exit', () => ok())));
    expect(second.child.exitCode).toBe(0);
    const page = await (await browser.newContext()).newPage();
    await page.goto(url as string);
    await page.getByRole('heading').first().waitFor();
    expect(page.url()).not.toContain('launch=');
  });

  it('Ctrl+C closes the core cleanly and removes the runtime file', async () => {
    const exited = new Promise<number | null>((ok) => first.child.on('exit', (code) => ok(code)));
    first.child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(first.output()).toMatch(/closed\./);
    expect(existsSync(join(dataDir, RUNTIME_FILE))).toBe(false);
  });
});
