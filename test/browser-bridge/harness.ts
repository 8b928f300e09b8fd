/**
 * The browser-test harness: a real till core in this process (fresh data folder, the real keychain,
 * its embedded sandbox and relay on loopback), the built renderer served on 127.0.0.1, and Debian's
 * Chromium driven by playwright-core. `window.momo` in the page forwards every call to the core
 * through `exposeBinding`, and every core event is pushed into the page, so the screens run exactly
 * as they do over Electron IPC.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { IPC_EVENTS, type IpcChannel } from '../../shared/ipc/contract.js';
import type { IpcEnvelope } from '../../shared/ipc/channels.js';
import { createTillCore } from '../../electron/core/index.js';
import { SCREENSHOTS_DIR } from '../support/screenshots.js';
import { installMomoBridge } from './init-script.js';
import { serveRenderer, type StaticServer } from './static-server.js';

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
  /** Calls the core directly, as the test's own back door (never used to drive the UI). */
  invoke<C extends IpcChannel>(channel: C, payload: unknown): ReturnType<TillCore['invoke']>;
  /** The embedded simulator's URL (from settings.json: reading settings through the core needs the owner). */
  sandboxUrl(): string;
  reload(): Promise<void>;
  /** Holds the page's calls on a channel until the returned function is called (a slow answer, without timers). */
  hold(channel: IpcChannel): () => void;
  close(): Promise<void>;
};

export async function openTill(
  browser: Browser,
  rendererDir: string,
  coreOptions: Partial<CoreOptions> = {},
  /** 'skip' (default): the first start's owner PIN question is skipped, as a shop taking sandbox payments at once would. */
  firstStart: 'skip' | 'show' = 'skip',
): Promise<Till & { server: StaticServer }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'momo-till-browser-'));
  const core = await createTillCore({ dataDir, log: () => undefined, ...coreOptions });
  const server = await serveRenderer(rendererDir);
  const origin = new URL(server.url).origin;
  const context = await browser.newContext({ viewport: { width: 1024, height: 600 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));

  // As over Electron IPC: only our own page may call the core, which checks and validates the call and answers with the same envelope.
  const held = new Map<string, Promise<void>>();
  await page.exposeBinding('__momoInvoke', async (source, channel: string, payload: unknown): Promise<IpcEnvelope> => {
    if (new URL(source.frame.url()).origin !== origin) {
      return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This window may not call the till.' } };
    }
    await held.get(channel);
    return core.answer(channel, payload);
  });
  await page.addInitScript(installMomoBridge);
  const unsubscribe = IPC_EVENTS.map((event) =>
    core.on(event, (payload) => {
      page
        .evaluate(([e, p]) => (window as unknown as { __momoEmit?: (e: string, p: unknown) => void }).__momoEmit?.(e, p), [
          event,
          payload,
        ] as const)
        .catch(() => undefined);
    }),
  );
  await page.goto(server.url);
  if (firstStart === 'skip') await page.getByRole('button', { name: 'Skip for now' }).click();
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });

  return {
    core,
    page,
    context,
    dataDir,
    problems,
    server,
    invoke: (channel, payload) => core.invoke(channel, payload),
    sandboxUrl: () => {
      const { embeddedPorts } = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { embeddedPorts: { sandbox: number } };
      return `http://127.0.0.1:${embeddedPorts.sandbox}`;
    },
    hold: (channel) => {
      let release = () => undefined as void;
      held.set(
        channel,
        new Promise<void>((ok) => {
          release = ok;
        }),
      );
      return () => {
        held.delete(channel);
        release();
      };
    },
    reload: async () => {
      await page.reload();
    },
    close: async () => {
      for (const off of unsubscribe) off();
      await context.close().catch(() => undefined);
      await core.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
