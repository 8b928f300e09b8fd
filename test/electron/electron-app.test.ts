/**
 * The same cashier scenarios against the real Electron app, where the Electron binary is present.
 * Here (no binary can be downloaded) the test reports itself skipped by name, with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { axe, enter, focused, resultTitle, sell } from '../browser-bridge/cashier.js';
// The one place that decides whether the real app can launch here. It finds the binary WITHOUT
// require('electron'), which would start a download of the binary from inside the test run.
import { canLaunch, launchApp, skipReason } from './electron-env.js';

const reason = canLaunch ? '' : (skipReason ?? 'the app cannot be launched here');
if (reason) console.warn(`[skipped] electron-app.test.ts: ${reason}`);

describe(`the real Electron app${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it.skipIf(Boolean(reason))('a keyboard sale for success and for a decline, with axe passing, in the real app window', async () => {
    const home = mkdtempSync(join(tmpdir(), 'momo-electron-app-'));
    const app = await launchApp(home);
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
