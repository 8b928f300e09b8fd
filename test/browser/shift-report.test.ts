/**
 * The shift report at the counter: two cashiers sell through the real sandbox, Kofi reads his shift's
 * report (its figures are the sandbox's own records of his sales, his held payment listed apart), prints
 * it and closes his shift, which signs him out. Later sales leave the closed report as it was; the owner
 * finds it in the list of shifts, filtered by Kofi, and prints it: an 80 mm page.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, sale, screenshot, sellToWaiting, stopWaiting, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { signIn, switchTo } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { pdfPages } from '../support/pdf-pages.js';
import { formatGhs, parseAmount } from '../../shared/money.js';

const pdfs: Buffer[] = [];
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  tillName: 'Front counter',
  // The system printer's stand-in: Chromium prints the page to PDF with the page size the CSS asks for.
  systemPrinter: {
    list: async () => [{ name: 'pdf', displayName: 'Print to PDF' }],
    print: async () => void pdfs.push(await till.get().page.pdf({ preferCSSPageSize: true })),
  },
}));

const OWNER = '2468';
const KOFI = '1357';
const AMA = '2580';
/** Kofi's sales: paid, declined (01), and authorised with its webhook held by the sandbox (07). */
const KOFI_PAID = '0241234561';
const KOFI_DECLINED = '0241234501';
const KOFI_HELD = '0241234507';

/** The figures row of the report on screen: payments, paid, not paid, gross, fees, net. */
const totalRow = (page: Page) => page.getByTestId('shift-total').locator('td').allTextContents();

/** Kofi's figures from the sandbox's own records (its dashboard API), not the till's. */
async function sandboxFigures(): Promise<string[]> {
  const mine = (await sandboxTransactions(till.get().sandboxUrl())).filter((t) =>
    [KOFI_PAID, KOFI_DECLINED].some((n) => t.msisdn === `233${n.slice(1)}`),
  );
  const paid = mine.filter((t) => t.status === 'SUCCESS');
  const sum = (values: string[]) => values.reduce((total, v) => total + parseAmount(v, { allowZero: true }), 0);
  const gross = sum(paid.map((t) => t.amount));
  const fees = sum(paid.map((t) => t.fee));
  return [
    String(mine.length),
    String(paid.length),
    String(mine.length - paid.length),
    formatGhs(gross),
    formatGhs(fees),
    formatGhs(gross - fees),
  ];
}

/** The page's width at 800×600 (more than 800: it scrolls sideways); the window goes back to 1024×600. */
/** The page's width once it has laid out at 800 px (the takings chart measures its box a frame after a resize). */
async function widthAt800(page: Page): Promise<number> {
  await page.setViewportSize({ width: 800, height: 600 });
  let width = 0;
  await expect
    .poll(async () => (width = await page.evaluate(() => document.documentElement.scrollWidth)), { timeout: 2_000 })
    .toBeLessThanOrEqual(800)
    .catch(() => undefined); // the caller's assertion reports the width
  await page.setViewportSize({ width: 1024, height: 600 });
  return width;
}

let kofiReport: string[];

describe('the shift report', () => {
  it("matches the sandbox's records of Kofi's sales, lists his held payment apart, prints, and closes his shift", async () => {
    const { page, invoke } = till.get();
    await invoke('owner:setPin', { pin: OWNER });
    const receipt = ((await invoke('settings:get', {})) as { receipt: Record<string, unknown> }).receipt;
    await invoke('receipt:saveSettings', { ...receipt, printer: 'system', paper: 80 });
    await invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    await invoke('staff:add', { name: 'Ama', role: 'cashier', pin: AMA });
    await till.get().reload();

    await switchTo(page, KOFI, 'Kofi');
    await sale(page, '12', KOFI_PAID, 'PAID');
    await sale(page, '3', KOFI_DECLINED, 'NOT PAID');
    await sellToWaiting(page, '4', KOFI_HELD);
    await stopWaiting(page);
    await switchTo(page, AMA, 'Ama');
    await sale(page, '7', '0201234562', 'PAID');
    await switchTo(page, KOFI, 'Kofi');

    await page.getByRole('navigation', { name: 'Till sections' }).getByRole('button', { name: 'Shift' }).click();
    await page.getByRole('heading', { name: 'Your shift' }).waitFor();
    expect(await text(page, 'shift-person')).toBe('Kofi');
    const expected = await sandboxFigures();
    expect(expected.slice(0, 3)).toEqual(['2', '1', '1']);
    await expect.poll(() => totalRow(page)).toEqual(expected);
    expect(await page.getByTestId('shift-table').locator('tbody th').allTextContents()).toEqual(['MTN MoMo']);
    expect(await text(page, 'shift-awaiting')).toMatch(/Still waiting for a result \(1\).*GH₵4\.00 · 024 123 4507/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'shift-report');
    expect(await widthAt800(page)).toBeLessThanOrEqual(800);

    pdfs.length = 0;
    await page.getByTestId('shift-print').click();
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    expect(pdfs).toHaveLength(1);
    expect(pdfPages(pdfs[0]!)).toHaveLength(1);

    await page.getByRole('button', { name: 'Close shift' }).click();
    expect(await page.getByRole('group').textContent()).toMatch(/Close your shift\? .* you are signed out/);
    await page.getByRole('button', { name: 'Close shift and sign out' }).click();
    await page.getByRole('heading', { name: 'Who is selling?' }).waitFor();
    kofiReport = expected;
  });

  it('stays as it was after later sales; the owner finds it among the shifts, filtered by Kofi, and prints it on 80 mm', async () => {
    const { page } = till.get();
    await signIn(page, AMA, 'Ama');
    await page.getByRole('navigation', { name: 'Till sections' }).getByRole('button', { name: 'Charge' }).click();
    await sale(page, '5', '0201234563', 'PAID');
    await switchTo(page, KOFI, 'Kofi'); // a new shift of his
    await sale(page, '9', '0241234564', 'PAID');

    await switchTo(page, OWNER, 'Owner');
    await page.getByRole('navigation', { name: 'Till sections' }).getByRole('button', { name: 'Shift' }).click();
    await page.getByTestId('shift-list').waitFor();
    await expect.poll(() => page.getByTestId('shift-list').locator('tbody th').allTextContents()).toEqual(['Owner', 'Kofi', 'Ama', 'Kofi']); // the owner's own, opened at sign-in
    await page.getByTestId('shift-person-filter').selectOption({ label: 'Kofi' });
    await expect.poll(() => page.getByTestId('shift-list').locator('tbody th').allTextContents()).toEqual(['Kofi', 'Kofi']);
    const closed = page.getByTestId('shift-list').locator('tbody tr').nth(1);
    expect(await closed.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/^\d{2} \w{3} \d{4}, /),
      expect.stringMatching(/^\d{2} \w{3} \d{4}, /),
      '2 (+1 waiting)',
      kofiReport[5],
      'View',
    ]);
    await closed.getByRole('button', { name: /^View/ }).click();
    await page.getByRole('heading', { name: "Kofi's shift" }).waitFor();
    await expect.poll(() => totalRow(page)).toEqual(kofiReport);
    expect(await text(page, 'shift-closed')).toMatch(/by Kofi$/);
    expect(await page.getByRole('button', { name: 'Close shift' }).count()).toBe(0);

    pdfs.length = 0;
    await page.getByTestId('shift-print').click();
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');
    const sheet = page.getByTestId('print-sheet');
    expect(await sheet.getAttribute('class')).toContain('paper-80');
    expect(await sheet.getByTestId('receipt').getAttribute('data-title')).toBe('shift report');
    expect(await sheet.textContent()).toMatch(/SHIFT REPORT.*CLOSED.*CashierKofi/);
    const pages = pdfPages(pdfs[0]!);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.widthMm).toBeCloseTo(80, 0);
    expect(await axe(page)).toEqual([]);
  });

  it("Takings, its CSV and History show one cashier's payments when the owner picks them", async () => {
    const { page } = till.get();
    const nav = page.getByRole('navigation', { name: 'Till sections' });
    await nav.getByRole('button', { name: 'Takings' }).click();
    await expect.poll(() => text(page, 'today-count')).toBe('4 / 5'); // Kofi's 12, 3 and 9, Ama's 7 and 5: paid / with a result
    await page.locator('#takings-cashier').selectOption({ label: 'Kofi' });
    await expect.poll(() => text(page, 'today-count')).toBe('2 / 3');
    expect(await text(page, 'today-gross')).toBe('GH₵21.00');
    expect(await text(page, 'takings-cashier-note')).toBe("Every figure and export below is Kofi's only.");
    expect(await text(page, 'awaiting-summary')).toMatch(/^1 payment from this till, GH₵4\.00/); // his held one
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export today' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^momo-takings-test-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}-kofi\.csv$/);
    const [header, ...rows] = (await readFile((await download.path()) as string, 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // By the header's name, not its place: a column added to the CSV moves the ones after it.
    const cashierColumn = header!.split(',').indexOf('cashier');
    expect(cashierColumn).toBeGreaterThan(-1);
    expect(rows.map((r) => r.split(',')[cashierColumn])).toEqual(['Kofi', 'Kofi', 'Kofi']);
    expect(await axe(page)).toEqual([]);
    expect(await widthAt800(page)).toBeLessThanOrEqual(800);

    await nav.getByRole('button', { name: 'History' }).click();
    await expect.poll(() => text(page, 'history-count')).toBe('6 payments');
    await page.locator('#history-cashier').selectOption({ label: 'Ama' });
    await expect.poll(() => text(page, 'history-count')).toBe('2 payments');
    expect(await page.getByTestId('history-cashier').allTextContents()).toEqual([' · Ama', ' · Ama']);
    await page.locator('#history-cashier').selectOption({ label: 'Nobody signed in' });
    await expect.poll(() => text(page, 'history-count')).toBe('0 payments');
    expect(await axe(page)).toEqual([]);
    expect(await widthAt800(page)).toBeLessThanOrEqual(800);
  });
});
