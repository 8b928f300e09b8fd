/**
 * Receipts at the counter, in Chromium with the real core: the owner sets the receipt and a network
 * printer in Settings and test-prints; PAID prints by itself; a printer that is off or silent shows
 * its message with "Print again" while the next sale goes on; a double click prints once; the system
 * printer path prints to PDF at 80 and 58 mm (the page as wide as the paper); screenshots of receipts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, focused, goTo, receiptScreenshot, resultTitle, sell, text } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { decodeEscPos, plainLines } from '../support/escpos-decoder.js';
import { startFakePrinter, type FakePrinter } from '../support/fake-network-printer.js';
import { pdfPages } from '../support/pdf-pages.js';

const PIN = '2468';
const pdfs: Buffer[] = [];
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  tillName: 'Front counter',
  ownerSessionMs: 60 * 60_000,
  // The system printer's stand-in: Chromium prints the page to PDF with the page size the CSS asks for.
  systemPrinter: {
    list: async () => [{ name: 'pdf', displayName: 'Print to PDF' }],
    print: async () => void pdfs.push(await till.get().page.pdf({ preferCSSPageSize: true })),
  },
}));
let printer: FakePrinter;
beforeAll(async () => {
  printer = await startFakePrinter();
});
afterAll(async () => printer?.close());

async function saveReceipt(patch: Record<string, unknown>): Promise<void> {
  await till.get().invoke('owner:unlock', { pin: PIN });
  const current = (await till.get().invoke('settings:get', {})) as { receipt: Record<string, unknown> };
  await till.get().invoke('receipt:saveSettings', { ...current.receipt, ...patch });
  await till.get().invoke('owner:lock', {});
  await till.get().reload();
}

async function newSale(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New sale' }).click();
  await focused(page, 'amount');
}

describe('receipts and printers', () => {
  it('the owner sets the shop header and a network printer in Settings, and the test print arrives', async () => {
    const { page } = till.get();
    await till.get().invoke('owner:setPin', { pin: PIN });
    await till.get().reload();
    await goTo(page, 'Settings');
    const form = page.getByTestId('receipt-form');
    await form.getByLabel('Shop name').fill('Ama Provisions');
    await form.getByLabel('Address').fill('12 Oxford Street\nOsu, Accra');
    await form.getByLabel('Shop phone').fill('030 123 4567');
    await form.getByLabel('Tax id on the receipt').selectOption('tin');
    await form.getByLabel('Tax id', { exact: true }).fill('C001234');
    await form.getByLabel('Network thermal printer').check();
    await form.getByLabel('Printer address').fill('127.0.0.1');
    await form.getByLabel('Port').fill(String(printer.port));
    await form.getByLabel('Print automatically on PAID').check();
    await form.getByRole('button', { name: 'Save receipt and printer' }).click();
    expect(await text(page, 'receipt-taxId-error')).toMatch(/GRA TIN such as C0012345678/);
    await form.getByLabel('Tax id', { exact: true }).fill('C0012345678');
    await form.getByRole('button', { name: 'Save receipt and printer' }).click();
    expect(await text(page, 'receipt-save-message')).toBe('Receipt and printer saved.');
    expect(await axe(page)).toEqual([]);

    const job = printer.nextJob();
    await form.getByRole('button', { name: 'Test print' }).click();
    const [testPage] = decodeEscPos(await job).documents;
    expect(plainLines(testPage!)).toEqual(expect.arrayContaining(['Ama Provisions', 'Osu, Accra', 'GRA TIN C0012345678', 'TEST PRINT']));
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    await receiptScreenshot(page, 'receipt-test-print');
    await goTo(page, 'Charge');
  });

  it('PAID prints by itself on the network printer; the print button reprints, marked REPRINT', async () => {
    const { page } = till.get();
    const job = printer.nextJob();
    await sell(page, '12.5', '0241234567');
    expect(await resultTitle(page)).toBe('PAID');
    const reference = await text(page, 'result-reference');
    const [receipt] = decodeEscPos(await job).documents;
    expect(receipt!.qr).toEqual([reference]);
    expect(plainLines(receipt!)).toEqual(expect.arrayContaining(['SANDBOX - NO MONEY MOVED - NOT A RECEIPT', 'PAID', 'CUSTOMER COPY']));
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    await receiptScreenshot(page, 'receipt-test');

    const again = printer.nextJob();
    await page.getByTestId('print-button').click();
    const [reprint] = decodeEscPos(await again).documents;
    expect(plainLines(reprint!).some((l) => l.startsWith('REPRINT '))).toBe(true);
    await expect.poll(() => page.getByTestId('print-sheet').textContent()).toMatch(/REPRINT/);
    await receiptScreenshot(page, 'receipt-reprint');
    await newSale(page);
  });

  it('a double click prints once', async () => {
    const { page } = till.get();
    await saveReceipt({ autoPrint: false });
    await sell(page, '5', '0241234568');
    expect(await resultTitle(page)).toBe('PAID');
    const before = printer.jobs.length;
    await page.getByTestId('print-button').dblclick();
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    await new Promise((r) => setTimeout(r, 300));
    expect(printer.jobs.length - before).toBe(1);
    await newSale(page);
  });

  it('a printer that is off, then one that is silent: the message and "Print again" show, and the next sale goes on', async () => {
    const { page } = till.get();
    const silent = await startFakePrinter('silent');
    try {
      // Each sale to its own number: the same number and amount again within minutes would ask first.
      for (const [port, message, first, next] of [
        [1, /refused the connection/, '0241234569', '0241234570'],
        [silent.port, /connected but did not answer within 5 s/, '0241234572', '0241234573'],
      ] as const) {
        await saveReceipt({ autoPrint: true, port });
        await sell(page, '3', first);
        expect(await resultTitle(page)).toBe('PAID');
        await expect.poll(() => text(page, 'print-error'), { timeout: 10_000 }).toMatch(message);
        expect(await text(page, 'print-error')).toMatch(/The sale is not affected/);
        expect(await axe(page)).toEqual([]);
        await page.getByRole('button', { name: 'Print again' }).waitFor();
        await newSale(page);
        await sell(page, '2', next);
        expect(await resultTitle(page)).toBe('PAID');
        await newSale(page);
      }
    } finally {
      await silent.close();
      await saveReceipt({ port: printer.port, autoPrint: false });
    }
  });

  it('NOT PAID prints a slip, never a receipt', async () => {
    const { page } = till.get();
    await sell(page, '3', '0241234501');
    expect(await resultTitle(page)).toBe('NOT PAID');
    const job = printer.nextJob();
    await page.getByRole('button', { name: 'Print slip' }).click();
    const [slip] = decodeEscPos(await job).documents;
    expect(plainLines(slip!)).toEqual(expect.arrayContaining(['NOT PAID', 'Do not hand over goods for this attempt.']));
    await expect.poll(() => page.getByTestId('print-sheet').textContent()).toMatch(/NOT A RECEIPT/);
    await receiptScreenshot(page, 'receipt-not-paid');
    await newSale(page);
  });

  it('History reprints a payment through the same path, marked REPRINT', async () => {
    const { page } = till.get();
    await goTo(page, 'History');
    await focused(page, 'history-search');
    await page.keyboard.type('4567');
    await expect.poll(() => page.getByTestId('history-row').count()).toBe(1);
    await page.getByRole('button', { name: /^Open/ }).click();
    await page.getByTestId('payment-detail').waitFor();
    expect(await axe(page)).toEqual([]);
    const job = printer.nextJob();
    await page.getByRole('button', { name: 'Reprint' }).click();
    const [reprint] = decodeEscPos(await job).documents;
    expect(plainLines(reprint!)).toEqual(expect.arrayContaining(['PAID', 'CUSTOMER COPY']));
    expect(plainLines(reprint!).some((l) => l.startsWith('REPRINT '))).toBe(true);
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    await goTo(page, 'Charge');
  });

  for (const paper of [80, 58] as const) {
    it(`the system printer: the page printed to PDF is ${paper} mm wide, one receipt a page`, async () => {
      const { page } = till.get();
      await saveReceipt({ printer: 'system', paper, autoPrint: true });
      pdfs.length = 0;
      await sell(page, '12.5', paper === 80 ? '0241234571' : '0241234574');
      expect(await resultTitle(page)).toBe('PAID');
      await expect.poll(() => pdfs.length).toBe(1);
      await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
      const pages = pdfPages(pdfs[0]!);
      expect(pages).toHaveLength(1);
      expect(pages[0]!.widthMm).toBeCloseTo(paper, 0);
      expect(pages[0]!.heightMm).toBeGreaterThan(60);
      if (paper === 58) await receiptScreenshot(page, 'receipt-58mm-paid');
      await newSale(page);
    });
  }
});
