/** The print service's answers that need no printer: never a throw, always something the screen can say. */
import { describe, expect, it } from 'vitest';
import { PrintService, type SystemPrinter } from '../../../../electron/core/printing/print-service.js';
import type { Logger } from '../../../../electron/core/logger.js';
import { DEFAULT_RECEIPT_SETTINGS, type ReceiptSettings } from '../../../../shared/receipt/receipt-settings.js';

const log: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, registerSecret: () => undefined };
const doc = { title: 't', blocks: [] };

function service(patch: Partial<ReceiptSettings>, systemPrinter: SystemPrinter | null = null, timeoutMs?: number) {
  return new PrintService({ settings: () => ({ ...DEFAULT_RECEIPT_SETTINGS, ...patch }), systemPrinter, log, timeoutMs });
}

describe('the print service', () => {
  it('no printer: the screen opens its own print view', async () => {
    expect(await service({ printer: 'none' }).print('k', [doc])).toEqual({ ok: true, deliver: 'dialog' });
  });

  it('a network printer without an address: says to set it', async () => {
    expect(await service({ printer: 'network', host: '' }).print('k', [doc])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/address is not set/),
    });
  });

  it('the system printer outside the desktop app: says so instead of failing', async () => {
    const printing = service({ printer: 'system' });
    expect(await printing.print('k', [doc])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/only reachable from the desktop app/),
    });
    expect(await printing.listSystemPrinters()).toEqual([]);
  });

  it('the system printer: the screen draws the page, then one page job at a time with the paper width and the page length', async () => {
    const jobs: unknown[] = [];
    let release = () => undefined as void;
    const printer: SystemPrinter = {
      list: async () => [],
      print: (options) => {
        jobs.push(options);
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const printing = service({ printer: 'system', paper: 58, deviceName: 'XP-58' }, printer);
    expect(await printing.print('k', [doc])).toEqual({ ok: true, deliver: 'page' });
    const [a, b] = [printing.printPage(120), printing.printPage(120)];
    release();
    expect(await Promise.all([a, b])).toEqual([
      { ok: true, deliver: 'sent' },
      { ok: true, deliver: 'sent' },
    ]);
    expect(jobs).toEqual([{ deviceName: 'XP-58', widthMm: 58, heightMm: 120 }]);
  });

  it('a system printer that never answers: a message after the time-out, naming the printer', async () => {
    const stuck: SystemPrinter = { list: async () => [], print: () => new Promise<void>(() => undefined) };
    const answer = await service({ printer: 'system', deviceName: 'XP-80' }, stuck, 50).printPage(100);
    expect(answer).toMatchObject({ ok: false, message: expect.stringMatching(/^The printer XP-80 did not take the receipt within/) });
  });
});
