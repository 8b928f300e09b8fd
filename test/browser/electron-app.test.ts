/**
 * The same cashier scenarios against the real Electron app, where the Electron binary is present.
 * Here (no binary can be downloaded) the test reports itself skipped by name, with the reason.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron } from 'playwright-core';
import { axe, enter, focused, resultTitle, sell } from '../browser-bridge/cashier.js';

const ROOT = resolve(import.meta.dirname, '../..');

function electronBinary(): string | null {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const built = existsSync(join(ROOT, 'out/main/index.js'));
const reason = !binary ? 'the Electron binary is not installed here' : !built ? 'the app is not built (npm run build)' : '';
if (reason) console.warn(`[skipped] electron-app.test.ts: ${reason}`);

describe('the real Electron app', () => {
  it.skipIf(Boolean(reason))('a keyboard sale for success and for a decline, with axe passing, in the real app window', async () => {
    const home = mkdtempSync(join(tmpdir(), 'momo-electron-app-'));
    const app = await _electron.launch({
      executablePath: binary as string,
      args: [join(ROOT, 'out/main/index.js'), '--no-sandbox'],
      env: { ...process.env, MOMO_DATA_DIR: join(home, 'data') } as Record<string, string>,
    });
    try {
      const page = await app.firstWindow();
      await page.setViewportSize({ width: 1024, height: 600 });
      await focused(page, 'amount');
      expect(await axe(page)).toEqual([]);
      await sell(page, '1250', '0241234567');
      expect(await resultTitle(page, 60_000)).toBe('PAID');
      await enter(page);
      await sell(page, '300', '0241234501');
      expect(await resultTitle(page, 60_000)).toBe('NOT PAID');
      expect(await axe(page)).toEqual([]);
    } finally {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
