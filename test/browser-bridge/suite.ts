/** One till per test file: a browser + the run's built renderer + a real core, opened in beforeAll and closed in afterAll. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { builtRenderer } from './built-renderer.js';
import { launchBrowser, openTill, type CoreOptions, type Till } from './harness.js';

/** The simulator runs at a tenth of real time: a 30 s slow approval takes 3 s, a 60 s prompt time-out 6 s. */
export const TIME_SCALE = 0.1;

export function useTill(
  coreOptions: () => Partial<CoreOptions> | Promise<Partial<CoreOptions>> = () => ({}),
  firstStart: 'skip' | 'show' = 'skip',
): {
  get(): Till;
  browser(): Browser;
  rendererDir(): string;
} {
  let browser: Browser | undefined;
  let rendererDir: string | undefined;
  let till: Till | undefined;
  beforeAll(async () => {
    rendererDir = builtRenderer();
    browser = await launchBrowser();
    till = await openTill(browser, rendererDir, await coreOptions(), firstStart);
  });
  afterEach((context) => {
    // A failing test shows what the core logged last: a state the screen waited for is often explained there.
    if (context.task.result?.state === 'fail' && till) console.error(`the core's last log lines:\n${till.logTail.join('\n')}`);
  });
  afterAll(async () => {
    await till?.close();
    await browser?.close();
  });
  return {
    get: () => {
      if (!till) throw new Error('till not open');
      return till;
    },
    browser: () => {
      if (!browser) throw new Error('browser not open');
      return browser;
    },
    rendererDir: () => {
      if (!rendererDir) throw new Error('renderer not built');
      return rendererDir;
    },
  };
}

const IDLE_LOCK_MS = 5 * 60_000;

/**
 * A till (`Front counter`) whose owner screens lock after five idle minutes, on a core clock the test moves on
 * as a laptop's moves after sleeping: `sleepAndWake()` puts it past the idle time, and the core locks by itself.
 */
export function useIdleLockTill(): ReturnType<typeof useTill> & { sleepAndWake(): void } {
  let coreClockAheadMs = 0;
  const till = useTill(() => ({
    embeddedTimeScale: TIME_SCALE,
    tillName: 'Front counter',
    idleLockMs: IDLE_LOCK_MS,
    now: () => Date.now() + coreClockAheadMs,
  }));
  return {
    ...till,
    sleepAndWake: () => {
      coreClockAheadMs += IDLE_LOCK_MS + 60_000;
    },
  };
}
