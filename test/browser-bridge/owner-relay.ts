/** The owner's phone page for one test file: a relay on loopback (SQLite) and a Chromium to open it, in beforeAll. */
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { startRelay, type RunningRelay } from '../../relay/http/index.js';
import type { RelayConfigInput } from '../../relay/ops/index.js';
import { makeConfig, post } from '../integration/relay/helpers.js';
import { removeDir, tempDir } from '../support/temp-dir.js';
import { launchBrowser } from './harness.js';

export function useOwnerRelay(name: string) {
  let dir = '';
  let config: ReturnType<typeof makeConfig> | undefined;
  let relay: RunningRelay | undefined;
  let browser: Browser | undefined;
  const start = (port?: number) => startRelay({ dataDir: dir, config: config!.config, log: () => {}, port });
  beforeAll(async () => {
    dir = tempDir(name);
    config = makeConfig();
    relay = await start();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
    removeDir(dir);
  });
  const running = (): RunningRelay => {
    if (!relay) throw new Error('relay not running');
    return relay;
  };
  return {
    url: () => running().url,
    /** The till token of the relay's one merchant. */
    tillToken: () => config!.token,
    browser: () => {
      if (!browser) throw new Error('browser not open');
      return browser;
    },
    /** A link made as a till makes it: the URL a phone opens, and its token. */
    async link(label: string, environment: 'test' | 'live'): Promise<{ url: string; token: string }> {
      const res = await post(`${running().url}/v1/owner-links`, JSON.stringify({ label, environment }), {
        authorization: `Bearer ${config!.token}`,
      });
      const made = res.json as { path: string; token: string };
      return { url: `${running().url}${made.path}`, token: made.token };
    },
    /** The relay's settings, changed as an operator's config reload changes them (the rest kept). */
    settings(settings: Partial<RelayConfigInput>): void {
      running().setConfig({ ...config!.config, ...settings });
    },
    /** Stops the relay; `startAgain` opens it on the same data folder and port. */
    async stop(): Promise<void> {
      await running().close();
    },
    async startAgain(): Promise<void> {
      relay = await start(Number(new URL(running().url).port));
    },
  };
}
