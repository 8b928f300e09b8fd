/**
 * Electron's silent printing in the real app, where the Electron binary is present: the printer list
 * comes from getPrintersAsync, and a receipt sent to the system printer ends, without a dialog, in
 * "Sent to the printer." or the printer's message with "Print again"; the next sale goes on either way.
 * Here (no binary can be downloaded) the test reports itself skipped by name, with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enter, focused, resultTitle, sell } from '../browser-bridge/cashier.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../shared/receipt/receipt-settings.js';
import { canLaunch, launchApp, skipReason } from './electron-env.js';

const reason = canLaunch ? '' : (skipReason ?? 'the app cannot be launched here');
if (reason) console.warn(`[skipped] electron-printing.test.ts: ${reason}`);

type Momo = { invoke(channel: string, payload: unknown): Promise<unknown> };

describe(`silent printing in the real Electron app${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it.skipIf(Boolean(reason))('lists the system printers and prints a PAID receipt without a dialog', async () => {
    const home = mkdtempSync(join(tmpdir(), 'momo-electron-print-'));
    const app = await launchApp(home);
    try {
      const page = await app.firstWindow();
      await focused(page, 'amount');
      const osPrinters = await app.evaluate(async ({ BrowserWindow }) =>
        (await BrowserWindow.getAllWindows()[0]!.webContents.getPrintersAsync()).map((p) => p.name),
      );
      const listed = await page.evaluate(async (settings) => {
        const momo = (window as unknown as { momo: Momo }).momo;
        await momo.invoke('owner:setPin', { pin: '2468' });
        await momo.invoke('receipt:saveSettings', { ...settings, printer: 'system', autoPrint: true });
        return (await momo.invoke('printer:list', {})) as { printers: Array<{ name: string }> };
      }, DEFAULT_RECEIPT_SETTINGS);
      expect(listed.printers.map((p) => p.name)).toEqual(osPrinters);
      await page.reload();
      await focused(page, 'amount');
      await sell(page, '1250', '0241234567');
      expect(await resultTitle(page, 60_000)).toBe('PAID');
      const outcome = page.getByTestId('print-status').or(page.getByTestId('print-error'));
      await expect.poll(async () => (await outcome.textContent()) ?? '', { timeout: 10_000 }).toMatch(/Sent to the printer|Not printed/);
      await enter(page); // New sale
      await sell(page, '700', '0241234568');
      expect(await resultTitle(page, 60_000)).toBe('PAID');
    } finally {
      await app.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
