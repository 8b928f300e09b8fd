/**
 * The real Electron app through Playwright's Electron support: one hardened window on app://momo,
 * the preload's single API object, no Node in the renderer, new windows and navigation refused, a
 * single instance. Skipped by name (with the reason printed) where the Electron binary is absent.
 *   scripts/with-keyring.sh npx vitest run --project electron   (part of npm test)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { appRoot, canLaunch, electronPath, skipReason, sqliteBinding } from './electron-env.js';

const dataDir = mkdtempSync(join(tmpdir(), 'momo-electron-'));
const env = { ...process.env, MOMO_DATA_DIR: dataDir, MOMO_SQLITE_BINDING: sqliteBinding ?? '' } as Record<string, string>;
let app: ElectronApplication | null = null;
let page: Page;

beforeAll(async () => {
  if (!canLaunch) return;
  app = await _electron.launch({ executablePath: electronPath as string, args: [appRoot], cwd: appRoot, env });
  page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`Electron shell${canLaunch ? '' : ` (skipped: ${skipReason})`}`, () => {
  it.skipIf(!canLaunch)('opens one window on app://momo with isolation, sandbox and no Node in the renderer', async () => {
    expect(app!.windows()).toHaveLength(1);
    expect(page.url()).toBe('app://momo/index.html');
    const probe = await page.evaluate(() => ({
      keys: Object.keys((window as unknown as { momo: object }).momo).sort(),
      frozen: Object.isFrozen((window as unknown as { momo: object }).momo),
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
    }));
    expect(probe).toEqual({ keys: ['invoke', 'on'], frozen: true, require: 'undefined', process: 'undefined' });
    // The window was created with the hardened options (electron/main/window.ts); what the page can see proves them.
    const sandboxed = await app!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.webContents.getURL());
    expect(sandboxed).toBe('app://momo/index.html');
  });

  it.skipIf(!canLaunch)('the preload reaches the core: status on the embedded TEST sandbox, errors as {code, message}', async () => {
    const status = await page.evaluate(() =>
      (window as unknown as { momo: { invoke(c: string, p: unknown): Promise<{ environment: string; embedded: boolean }> } }).momo.invoke(
        'app:status',
        {},
      ),
    );
    expect(status).toMatchObject({ environment: 'test', embedded: true });
    const error = await page.evaluate(() =>
      (window as unknown as { momo: { invoke(c: string, p: unknown): Promise<unknown> } }).momo
        // A channel the till's first caller (anonymous) may use: the roles table is checked before the payload is read.
        .invoke('history:search', { date: 'x' })
        .catch((e: unknown) => e),
    );
    expect(error).toEqual({ code: 'INVALID_REQUEST', message: expect.stringMatching(/date/) });
    const unknown = await page.evaluate(() =>
      (window as unknown as { momo: { invoke(c: string, p: unknown): Promise<unknown> } }).momo
        .invoke('fs:read', {})
        .catch((e: unknown) => e),
    );
    expect(unknown).toMatchObject({ code: 'UNKNOWN_CHANNEL' });
  });

  it.skipIf(!canLaunch)('refuses new windows and navigation away, and serves the CSP', async () => {
    await page.evaluate(() => window.open('https://example.com/'));
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(app!.windows()).toHaveLength(1);
    expect(page.url()).toBe('app://momo/index.html');
    const csp = await page.evaluate(async () => (await fetch('app://momo/index.html')).headers.get('content-security-policy'));
    expect(csp).toContain("default-src 'none'");
  });

  it.skipIf(!canLaunch)('a second instance hands over to the first and exits', () => {
    const second = spawnSync(electronPath as string, [appRoot], { env, timeout: 30_000 });
    expect(second.status).toBe(0);
    expect(app!.windows()).toHaveLength(1);
  });
});
