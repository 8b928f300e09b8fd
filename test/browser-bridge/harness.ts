/**
 * The browser-test harness: a real till core in this process (fresh data folder, the real keychain,
 * its embedded sandbox and relay on loopback), and Debian's Chromium driven by playwright-core on
 * browser mode's own server (electron/browser): the page opens the launch link, trades it for the
 * session cookie, and its `window.momo` calls the core over HTTP and hears its events over the event
 * stream, the path `npm start` takes in browser mode.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { IpcChannel } from '../../shared/ipc/contract.js';
import { createTillCore } from '../../electron/core/index.js';
import { startBrowserServer } from '../../electron/browser/index.js';
import { SCREENSHOTS_DIR } from '../support/screenshots.js';

export type StaticServer = { url: string; close(): Promise<void> };

export const ROOT = resolve(import.meta.dirname, '../..');

export type TillCore = Awaited<ReturnType<typeof createTillCore>>;
export type CoreOptions = Parameters<typeof createTillCore>[0];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export type Till = {
  core: TillCore;
  page: Page;
  context: BrowserContext;
  dataDir: string;
  /** Console errors and page errors seen so far (a CSP violation shows up here). */
  problems: string[];
  /** The core's last log lines, oldest first. */
  logTail: string[];
  /** Calls the core directly, as the test's own back door (never used to drive the UI). */
  invoke<C extends IpcChannel>(channel: C, payload: unknown): ReturnType<TillCore['invoke']>;
  /** The embedded simulator's URL (from settings.json: reading settings through the core needs the owner). */
  sandboxUrl(): string;
  reload(): Promise<void>;
  /** Holds the page's calls on a channel until the returned function is called (a slow answer, without timers). */
  hold(channel: IpcChannel): () => void;
  /** The core answers the page's calls on a channel at once, but the answers reach the page only when the returned function is called. */
  holdAnswers(channel: IpcChannel): () => void;
  close(): Promise<void>;
};

const LOG_TAIL_LINES = 60;

export async function openTill(
  browser: Browser,
  rendererDir: string,
  coreOptions: Partial<CoreOptions> = {},
  /** 'skip' (default): the first start's owner PIN question is skipped, as a shop taking sandbox payments at once would. */
  firstStart: 'skip' | 'show' = 'skip',
): Promise<Till & { server: StaticServer }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-till-browser-'));
  // The desktop app's policies by default (LIVE allowed): a test of browser mode's own passes shell: 'browser'.
  // The core's last lines, shown when a test fails (its log is otherwise dropped to keep the output short).
  const logTail: string[] = [];
  const log = (line: Record<string, unknown>) => {
    logTail.push(JSON.stringify(line));
    if (logTail.length > LOG_TAIL_LINES) logTail.shift();
  };
  const core = await createTillCore({ dataDir, log, ...coreOptions });
  // The core's answer, held while a test holds a channel (a slow answer, without timers).
  const held = new Map<string, Promise<void>>();
  // An answer the core gave at once, delivered when the test lets it go: overtaken by whatever happened meanwhile.
  const late = new Map<string, Promise<void>>();
  const transport = await startBrowserServer(
    {
      answer: async (channel, payload) => {
        await held.get(channel);
        const answer = await core.answer(channel, payload);
        await late.get(channel);
        return answer;
      },
      on: core.on,
    },
    rendererDir,
  );
  const server: StaticServer = { url: `${transport.origin}/`, close: () => transport.close() };
  const context = await browser.newContext({ viewport: { width: 1024, height: 600 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(transport.launchUrl());
  // Events reach the page once its stream is open.
  await transport.streaming();
  if (firstStart === 'skip') await page.getByRole('button', { name: 'Skip for now' }).click();
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });

  return {
    core,
    page,
    context,
    dataDir,
    problems,
    logTail,
    server,
    invoke: (channel, payload) => core.invoke(channel, payload),
    sandboxUrl: () => {
      const { embeddedPorts } = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { embeddedPorts: { sandbox: number } };
      return `http://127.0.0.1:${embeddedPorts.sandbox}`;
    },
    hold: (channel) => holdOn(held, channel),
    holdAnswers: (channel) => holdOn(late, channel),
    reload: async () => {
      await page.reload();
    },
    close: async () => {
      await context.close().catch(() => undefined);
      await core.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Holds `channel` in `gate` until the returned function is called. */
function holdOn(gate: Map<string, Promise<void>>, channel: IpcChannel): () => void {
  let release = () => undefined as void;
  gate.set(
    channel,
    new Promise<void>((ok) => {
      release = ok;
    }),
  );
  return () => {
    gate.delete(channel);
    release();
  };
}
