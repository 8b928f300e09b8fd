/**
 * The operating system's printers for the core's print path: the list (getPrintersAsync) and a
 * silent print of the till window's page (only the receipt shows in print media), as wide as the
 * paper and as long as the receipt. No dialog at the counter.
 */
import type { BrowserWindow } from 'electron';
import type { SystemPrinter } from '../core/index.js';

const MICRONS_PER_MM = 1000;

export function createSystemPrinter(window: () => BrowserWindow | null): SystemPrinter {
  return {
    async list() {
      const win = window();
      if (!win || win.isDestroyed()) return [];
      const printers = await win.webContents.getPrintersAsync();
      return printers.map((p) => ({ name: p.name, displayName: p.displayName || p.name }));
    },
    print({ deviceName, widthMm, heightMm }) {
      return new Promise<void>((resolve, reject) => {
        const win = window();
        if (!win || win.isDestroyed()) return reject(new Error('The till window is closed.'));
        win.webContents.print(
          {
            silent: true,
            printBackground: false,
            ...(deviceName ? { deviceName } : {}),
            pageSize: { width: widthMm * MICRONS_PER_MM, height: heightMm * MICRONS_PER_MM },
            margins: { marginType: 'none' },
          },
          (success, failureReason) => (success ? resolve() : reject(new Error(failureReason || 'the printer refused the page'))),
        );
      });
    },
  };
}
