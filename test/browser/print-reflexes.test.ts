/**
 * Enter after a print button must not print again. After "Print slip" (NOT PAID) or
 * "Print receipt" (PAID) the focus goes back to "New sale", so the reflex Enter that follows starts a new,
 * empty sale. The system printer's stand-in counts every page the core sends it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { enter, focused, focusedText, resultTitle, sell, text } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const PIN = '2468';
let pages = 0;
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  systemPrinter: { list: async () => [{ name: 'pdf', displayName: 'Print to PDF' }], print: async () => void (pages += 1) },
}));

async function systemPrinter(): Promise<void> {
  const t = till.get();
  await t.invoke('owner:setPin', { pin: PIN });
  const current = (await t.invoke('settings:get', {})) as { receipt: Record<string, unknown> };
  await t.invoke('receipt:saveSettings', { ...current.receipt, printer: 'system', autoPrint: false });
  await t.invoke('owner:lock', {});
  await t.reload();
}

/** Press the print button with the keyboard (Tab to it, Enter), wait until it printed, then press Enter again by reflex. */
async function printThenEnter(page: Page, button: 'Print slip' | 'Print receipt'): Promise<void> {
  await page.getByRole('button', { name: button }).focus();
  const before = pages;
  await enter(page);
  await expect.poll(() => text(page, 'print-status')).toMatch(/Sent to the printer|Printed/);
  expect(pages).toBe(before + 1);
  await focusedText(page, /^New sale$/);
  await enter(page); // the reflex
  await focused(page, 'amount');
  expect(pages).toBe(before + 1);
  expect(await page.inputValue('#amount')).toBe('');
}

describe('a print, then Enter', () => {
  it('NOT PAID → Print slip → Enter: one slip, and a new sale', async () => {
    await systemPrinter();
    const { page } = till.get();
    await sell(page, '3', '0241234501');
    expect(await resultTitle(page)).toBe('NOT PAID');
    await printThenEnter(page, 'Print slip');
  });

  it('PAID → Print receipt → Enter: one receipt, and a new sale', async () => {
    const { page } = till.get();
    await sell(page, '12', '0241234567');
    expect(await resultTitle(page)).toBe('PAID');
    await printThenEnter(page, 'Print receipt');
  });
});
