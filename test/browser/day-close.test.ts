/**
 * The day's close in Chromium with the real core, its embedded sandbox and relay: a cashier's sales (one
 * paid, one declined, one to a number ending 07, authorised but its webhook held), an X report that
 * closes nothing, closing the day after a confirmation into Z-0001 whose figures match the sandbox's own
 * records, printed on a network printer and exported as CSV; then the held webhook replayed from the
 * sandbox's dashboard arrives after the close: Z-0001 shows it since its close with its figures unchanged,
 * and Z-0002 counts it as arrived after close.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addPesewas, formatGhs, parseAmount } from '../../shared/money.js';
import { axe, sale, screenshot, sellToWaiting, stopWaiting, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions, type SandboxTransaction } from '../browser-bridge/sandbox-api.js';
import { switchTo } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { decodeEscPos, plainLines } from '../support/escpos-decoder.js';
import { startFakePrinter, type FakePrinter } from '../support/fake-network-printer.js';

// The core's clock, moved forward by the last test to make a waiting payment overdue (the sign-in outlasts it).
let coreClockAheadMs = 0;
const till = useTill(
  () => ({
    embeddedTimeScale: TIME_SCALE,
    tillName: 'Front counter',
    idleLockMs: 60 * 60_000,
    now: () => Date.now() + coreClockAheadMs,
  }),
  'show',
);
let printer: FakePrinter;
beforeAll(async () => {
  printer = await startFakePrinter();
});
afterAll(async () => printer?.close());

const OWNER = '2468';
const KOFI = '1357';
const HELD = '233241234507';

/** A reader of the cells of a CSV's rows by its header's column names (rows[0], after the byte-order mark). */
function csvCells(rows: string[]) {
  const header = rows[0]?.replace(/^\ufeff/, '').split(',') ?? [];
  return (row: string | undefined, column: string) => row?.split(',')[header.indexOf(column)];
}

async function openDayClose(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Day close', exact: true }).click();
  await page.getByRole('heading', { name: 'Day close', level: 1 }).waitFor();
}

/** The sandbox's own TEST records whose results reached the till (the held one has not yet). */
async function delivered(): Promise<SandboxTransaction[]> {
  return (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.environment === 'test' && t.msisdn !== HELD);
}

function figures(txs: SandboxTransaction[]) {
  const paid = txs.filter((t) => t.status === 'SUCCESS');
  const gross = addPesewas(0, ...paid.map((t) => parseAmount(t.amount)));
  const fees = addPesewas(0, ...paid.map((t) => parseAmount(t.fee, { allowZero: true })));
  return { count: `${paid.length} / ${txs.length}`, gross: formatGhs(gross), fees: formatGhs(fees), net: formatGhs(gross - fees) };
}

async function shownFigures(page: Page) {
  return {
    count: await text(page, 'day-count'),
    gross: await text(page, 'day-gross'),
    fees: await text(page, 'day-fees'),
    net: await text(page, 'day-net'),
  };
}

describe('the day close', () => {
  it('a cashier sells: one paid, one declined, one whose webhook the sandbox holds', async () => {
    const { page, invoke } = till.get();
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    await page.locator('#first-new').fill(OWNER);
    await page.locator('#first-again').fill(OWNER);
    await page.getByRole('button', { name: 'Set the PIN' }).click();
    await page.locator('#amount').waitFor();
    await invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    const receipt = (await invoke('settings:get', {})) as { receipt: Record<string, unknown> };
    await invoke('receipt:saveSettings', { ...receipt.receipt, printer: 'network', host: '127.0.0.1', port: printer.port });
    await till.get().reload(); // the screens learn of the new staff
    await switchTo(page, KOFI, 'Kofi');
    await sale(page, '12', '0241234567', 'PAID');
    await sale(page, '3', '0241234501', 'NOT PAID');
    await sellToWaiting(page, '5', '0241234507');
    await stopWaiting(page);
    // The sandbox authorised it; its webhook stays held until replayed from the dashboard.
    await expect
      .poll(async () => (await sandboxTransactions(till.get().sandboxUrl())).find((t) => t.msisdn === HELD)?.status)
      .toBe('SUCCESS');
  });

  it('an X report reads the day so far, with the awaited payment apart, and closes nothing', async () => {
    const { page, invoke } = till.get();
    await switchTo(page, OWNER, 'Owner');
    await openDayClose(page);
    await page.getByTestId('day-x').click();
    await page.getByRole('heading', { name: /X report \(since the last close\)/ }).waitFor();
    expect(await shownFigures(page)).toEqual(figures(await delivered()));
    expect(await text(page, 'day-report-env')).toBe('TEST');
    expect(await text(page, 'day-by-cashier')).toContain('Kofi');
    expect(await text(page, 'day-failures')).toContain('024 123 4501');
    expect(await text(page, 'day-awaiting-pending')).toMatch(/024 123 4507.*GH₵5\.00.*by Kofi.*Wait: its result can still arrive/);
    expect(await text(page, 'day-list')).toContain('No day has been closed yet.');
    expect(await invoke('day:list', {})).toEqual({ reports: [] });
    expect(await axe(page)).toEqual([]);
  });

  it('closes the day after a confirmation: Z-0001 matches the sandbox, prints and exports', async () => {
    const { page } = till.get();
    await page.getByTestId('day-close').click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('day-confirm').count()).toBe(0);
    await page.getByTestId('day-close').click();
    expect(await text(page, 'day-confirm')).toMatch(/Close the day as Z-0001\? This cannot be undone/);
    await page.getByTestId('day-confirm-close').click();
    await page.getByRole('heading', { name: /Z report Z-0001/ }).waitFor();
    const sandbox = figures(await delivered());
    expect(await shownFigures(page)).toEqual(sandbox);
    expect(await text(page, 'day-covers')).toMatch(/closed by Owner\.$/);
    expect(await text(page, 'day-awaiting-pending')).toContain('024 123 4507');
    expect(await text(page, 'day-since')).toMatch(/Pending.*Still no result/);
    expect(await text(page, 'day-list')).toMatch(/Z-0001.*Owner/);
    expect(await axe(page)).toEqual([]);
    await page.setViewportSize({ width: 800, height: 600 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1024, height: 600 });
    await screenshot(page, 'z-report');

    const job = printer.nextJob();
    await page.getByTestId('day-print').click();
    const lines = plainLines(decodeEscPos(await job).documents[0]!);
    expect(lines).toEqual(expect.arrayContaining(['TEST - SANDBOX, NO MONEY MOVED', 'Z REPORT Z-0001', 'By cashier', 'Kofi']));
    expect(lines.some((l) => l.startsWith('Net') && l.endsWith(sandbox.net.replace('GH₵', 'GHS ')))).toBe(true);
    await expect.poll(() => text(page, 'print-status')).toBe('Sent to the printer.');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('day-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^momo-Z-0001-Front-counter-TEST-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    const rows = csv.trim().split('\r\n');
    expect(rows.filter((r) => /,(SUCCESS|FAILED),/.test(r))).toHaveLength((await delivered()).length);
    expect(csv).toContain('024 123 4501');
    expect(rows).toContain(`total,Z-0001 TEST,2,1,1,${sandbox.gross.slice(3)},${sandbox.fees.slice(3)},${sandbox.net.slice(3)}`);
    // A byte-order mark, the held payment listed as PENDING but never counted, local date and time.
    expect([...(await readFile((await download.path()) as string)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const cell = csvCells(rows);
    const pending = rows.find((r) => r.includes(',024 123 4507,'));
    expect([cell(pending, 'status'), cell(pending, 'amount'), cell(pending, 'counted_in_totals')]).toEqual(['PENDING', '5.00', 'no']);
    for (const row of rows.filter((r) => /,(SUCCESS|FAILED|PENDING),/.test(r))) {
      expect(cell(row, 'local_date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(cell(row, 'local_time')).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    }
  });

  it('a result arriving after the close: shown against Z-0001, counted in Z-0002 as arrived after close', async () => {
    const { page } = till.get();
    const closedFigures = await shownFigures(page);
    const dashboard = await till.get().context.newPage();
    await dashboard.goto(`${till.get().sandboxUrl()}/dashboard`);
    const held = (await sandboxTransactions(till.get().sandboxUrl())).find((t) => t.msisdn === HELD)!;
    const card = dashboard.locator('[data-delivery-id]', { hasText: held.reference });
    await card.getByRole('button', { name: 'Replay' }).click();
    await card.locator('tr[data-attempt="1"]').waitFor();
    await dashboard.close();

    // Z-0001, viewed again: the same figures, and the result that arrived since.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Z-0001' }).click();
        return text(page, 'day-since');
      })
      .toMatch(/PAID at .*arrived after this close, to be counted in the next Z report/);
    expect(await shownFigures(page)).toEqual(closedFigures);

    await page.getByTestId('day-close').click();
    await page.getByTestId('day-confirm-close').click();
    await page.getByRole('heading', { name: /Z report Z-0002/ }).waitFor();
    expect(await shownFigures(page)).toEqual({
      count: '1 / 1',
      gross: 'GH₵5.00',
      fees: await text(page, 'day-fees'),
      net: await text(page, 'day-net'),
    });
    expect(await text(page, 'day-late')).toMatch(/PAID.*024 123 4507.*GH₵5\.00.*Kofi.*Z-0001/);
    const all = figures((await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.environment === 'test'));
    const fees = parseAmount(all.fees.slice(3)) - parseAmount(closedFigures.fees.slice(3));
    expect(await text(page, 'day-fees')).toBe(formatGhs(fees)); // the sandbox's fee for the held payment
    expect(await page.getByTestId('day-awaiting').count()).toBe(0);

    await page.getByRole('button', { name: 'Z-0001' }).click();
    await expect.poll(() => text(page, 'day-since')).toMatch(/Pending.*PAID at .*arrived after this close, counted in Z-0002/);
    expect(await shownFigures(page)).toEqual(closedFigures);
    expect(await axe(page)).toEqual([]);
  });

  it('a payment whose webhook the sandbox holds, a quarter of an hour later, is an OVERDUE row of the next Z CSV, in no total', async () => {
    const { page } = till.get();
    await switchTo(page, KOFI, 'Kofi');
    await sellToWaiting(page, '4', '0241234407');
    await stopWaiting(page);
    coreClockAheadMs = 16 * 60_000; // the till's clock a quarter of an hour on: the payment is overdue
    await switchTo(page, OWNER, 'Owner');
    await openDayClose(page);
    await page.getByTestId('day-close').click();
    await page.getByTestId('day-confirm-close').click();
    await page.getByRole('heading', { name: /Z report Z-0003/ }).waitFor();
    expect(await text(page, 'day-awaiting-overdue')).toContain('024 123 4407');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('day-export').click()]);
    const rows = (await readFile((await download.path()) as string, 'utf8')).trim().split('\r\n');
    const cell = csvCells(rows);
    const overdue = rows.find((r) => r.includes(',024 123 4407,'));
    expect([cell(overdue, 'status'), cell(overdue, 'amount'), cell(overdue, 'counted_in_totals')]).toEqual(['OVERDUE', '4.00', 'no']);
    expect(cell(overdue, 'local_date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(rows).toContain('total,Z-0003 TEST,0,0,0,0.00,0.00,0.00');
  });
});
