/**
 * The owner at the keyboard: sets the PIN on first visit, unlocks with it, reads the takings after a
 * mix of payments (checked against the sandbox's own records), exports the CSV, sees the settings with
 * masked secrets, is refused LIVE while its settings are incomplete, and the cashier sees a revoked
 * key's message.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { addPesewas, formatGhs, parseAmount } from '../../shared/money.js';
import { NETWORK_LABELS } from '../../shared/phone.js';
import {
  axe,
  enter,
  focused,
  focusedText,
  goTo,
  resultTitle,
  screenshot,
  sell,
  sellToWaiting,
  stopWaiting,
  tabTo,
  text,
} from '../browser-bridge/cashier.js';
import { revokeKey, sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

// Held while a payment must stay pending (it must not race a slow machine).
const clock = new HeldClock();
// The core's clock, moved forward by a test to make a waiting payment overdue (the owner session outlasts it).
let coreClockAheadMs = 0;
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  embeddedClock: clock,
  tillName: 'Front counter',
  now: () => Date.now() + coreClockAheadMs,
  idleLockMs: 60 * 60_000,
}));
afterEach(() => clock.release());
const PIN = '2468';

/** Into an empty date box, at the keyboard: focus it, select what is there, type over it. */
async function typeDate(id: string, typed: string): Promise<void> {
  const { page } = till.get();
  await page.locator(`#${id}`).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(typed);
}

/** An instant's date in the till's time zone as en-GH writes it: 22/11/2026. */
async function dayFirst(at: number): Promise<string> {
  const { timeZone } = (await till.get().invoke('takings:report', { from: '2026-01-01', to: '2026-01-01' })) as { timeZone: string };
  return new Date(at).toLocaleDateString('en-GB', { timeZone });
}

async function testSettings(): Promise<{ baseUrl: string; publicKeyId: string }> {
  const settings = (await till.get().invoke('settings:get', {})) as { test: { baseUrl: string; publicKeyId: string } };
  return settings.test;
}

describe('the owner', () => {
  it('takes a mix of payments as a cashier first', async () => {
    const { page } = till.get();
    for (const [digits, phone, title] of [
      ['12.5', '0241234567', 'PAID'],
      ['7', '0201234568', 'PAID'],
      ['3', '0241234501', 'NOT PAID'],
      ['40', '0271234503', 'NOT PAID'],
      ['199.99', '0551234505', 'PAID'],
    ] as const) {
      await sell(page, digits, phone);
      expect(await resultTitle(page)).toBe(title);
      await enter(page); // New sale
      await focused(page, 'amount');
    }
  });

  it('sets the PIN on the first visit to the owner screens, then needs it after locking', async () => {
    const { page } = till.get();
    await goTo(page, 'Takings');
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    await focused(page, 'first-new');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'pin-first-run');
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12');
    await enter(page);
    expect(await text(page, 'first-pin-error')).toBe('This PIN is too short: use 4 to 6 digits.');
    await page.locator('#first-new').fill('');
    await page.locator('#first-new').focus();
    await page.keyboard.type(PIN);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(PIN);
    await enter(page);
    await page.getByRole('heading', { name: 'Takings' }).waitFor();

    await tabTo(page, /^Lock$/);
    await enter(page);
    await page.getByRole('heading', { name: 'Owner PIN' }).waitFor();
    await focused(page, 'owner-pin');
    await page.keyboard.type('9999');
    await enter(page);
    expect(await text(page, 'owner-pin-error')).toBe('That PIN is not right.');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'pin-entry');
    await page.keyboard.type(PIN);
    await enter(page);
    await page.getByRole('heading', { name: 'Takings' }).waitFor();
  });

  it("shows today's takings that match the sandbox's own records, a 30-day chart, by network and by till", async () => {
    const { page } = till.get();
    const txs = (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.environment === 'test');
    expect(txs).toHaveLength(5);
    const paid = txs.filter((t) => t.status === 'SUCCESS');
    const gross = addPesewas(...paid.map((t) => parseAmount(t.amount)));
    const fees = addPesewas(...paid.map((t) => parseAmount(t.fee, { allowZero: true })));
    await expect.poll(() => text(page, 'today-gross')).toBe(formatGhs(gross));
    expect(gross).toBe(1250 + 700 + 19999);
    expect(await text(page, 'today-fees')).toBe(formatGhs(fees));
    expect(await text(page, 'today-net')).toBe(formatGhs(gross - fees));
    expect(await text(page, 'today-count')).toBe('3 / 5');
    expect(await text(page, 'today-rate')).toBe('60.0%');
    expect(await page.getByTestId('awaiting').count()).toBe(0); // nothing is waiting for a result
    expect(await text(page, 'range-gross')).toBe(formatGhs(gross));
    expect(await page.locator('.recharts-bar-rectangle').count()).toBeGreaterThanOrEqual(1);
    const byNetwork = await text(page, 'by-network');
    // Test-mode results carry the network "SANDBOX" on the wire, but this till's own payments count
    // under the network the cashier charged, as the sandbox recorded it: one row per network.
    expect(new Set(txs.map((t) => t.network))).toEqual(new Set(['MTN', 'TELECEL', 'AIRTELTIGO']));
    const rows = (['AIRTELTIGO', 'MTN', 'TELECEL'] as const).map((network) => {
      const mine = txs.filter((t) => t.network === network);
      const ok = mine.filter((t) => t.status === 'SUCCESS');
      const g = addPesewas(0, ...ok.map((t) => parseAmount(t.amount)));
      const f = addPesewas(0, ...ok.map((t) => parseAmount(t.fee, { allowZero: true })));
      return `${NETWORK_LABELS[network]}${mine.length}${ok.length}${formatGhs(g)}${formatGhs(f)}${formatGhs(g - f)}`;
    });
    expect(byNetwork).toContain(rows.join(''));
    expect(byNetwork).not.toContain('Sandbox');
    const status = (await till.get().invoke('app:status', {})) as { tillId: string };
    expect(await text(page, 'by-till')).toContain('Front counter'); // this till by its name, never its id
    expect(await text(page, 'by-till')).not.toContain(status.tillId);
    expect(await page.getByTestId('by-cashier').count()).toBe(0); // no staff: no payment names a cashier
    expect(await axe(page)).toEqual([]);
    // The chart renders under the strict CSP (no 'unsafe-inline'): no violation reached the console.
    expect(till.get().problems).toEqual([]);
    await screenshot(page, 'takings');
    await page.getByTestId('by-network').scrollIntoViewIfNeeded();
    await screenshot(page, 'takings-breakdown');
  });

  it('narrows the takings to a date range, typed day first as en-GH writes it', async () => {
    const { page } = till.get();
    // The boxes show the last 30 days as the headings do, day first (a native date box showed 10/24/2026).
    expect(await page.inputValue('#range-from')).toBe(await dayFirst(Date.now() - 29 * 86_400_000));
    expect(await page.inputValue('#range-to')).toBe(await dayFirst(Date.now()));
    const yesterday = await dayFirst(Date.now() - 86_400_000);
    await typeDate('range-from', yesterday);
    await typeDate('range-to', yesterday);
    await tabTo(page, /^Show range$/);
    await enter(page);
    await expect.poll(() => text(page, 'range-count')).toBe('0 / 0');
    expect(await text(page, 'range-gross')).toBe('GH₵0.00');
    expect(await text(page, 'today-count')).toBe('3 / 5'); // today's cards are unaffected
    await typeDate('range-to', await dayFirst(Date.now()));
    await tabTo(page, /^Show range$/);
    await enter(page);
    await expect.poll(() => text(page, 'range-count')).toBe('3 / 5');
  });

  it('names a date that is not one next to its box, keeps what was typed and shows nothing for it', async () => {
    const { page } = till.get();
    await typeDate('range-from', '10/24/2026'); // a US date
    await page.keyboard.press('Tab'); // leaving the box checks it
    expect(await text(page, 'range-from-error')).toBe('There is no month 24: write the day first, as 22/11/2026.');
    expect(await page.getAttribute('#range-from', 'aria-invalid')).toBe('true');
    await typeDate('range-to', '31/02/2026');
    await tabTo(page, /^Show range$/);
    await enter(page);
    // Show range refuses, with the focus back on the first wrong box; every figure stays as it was.
    await focused(page, 'range-from');
    expect(await text(page, 'range-to-error')).toBe('February 2026 has no day 31 (it has 28 days).');
    expect(await page.inputValue('#range-from')).toBe('10/24/2026');
    expect(await page.inputValue('#range-to')).toBe('31/02/2026');
    expect(await text(page, 'range-count')).toBe('3 / 5');
    expect(await axe(page)).toEqual([]);
    await typeDate('range-from', '1/1/2026');
    await typeDate('range-to', 'yesterday');
    await page.keyboard.press('Tab');
    expect(await text(page, 'range-to-error')).toBe('“yesterday” is not a date: write it day first, as 22/11/2026.');
    expect(await page.getByTestId('range-from-error').count()).toBe(0);
    await typeDate('range-to', await dayFirst(Date.now()));
    await tabTo(page, /^Show range$/);
    await enter(page);
    await expect.poll(() => page.getByTestId('range-to-error').count()).toBe(0);
    expect(await text(page, 'range-count')).toBe('3 / 5');
  });

  it('exports the range as CSV with every sandbox transaction in it', async () => {
    const { page } = till.get();
    await page.locator('#range-from').focus();
    await tabTo(page, /^Export range$/);
    const [download] = await Promise.all([page.waitForEvent('download'), enter(page)]);
    expect(download.suggestedFilename()).toMatch(/^momo-takings-test-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path()) as string, 'utf8');
    // UTF-8 with a byte-order mark, a local date and time column, the receipt number.
    expect(csv.startsWith('\ufeffdate,')).toBe(true);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,completed_at,completed_local,reference,merchant_ref,receipt_no,till,network,msisdn,status,amount,fee,net,description,service_network,cashier,settled_by_hand',
    );
    expect(lines.slice(1).every((l) => /^\d{4}-\d{2}-\d{2},[^,]+Z,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/.test(l))).toBe(true);
    expect(lines.filter((l) => /,SUCCESS,/.test(l)).every((l) => /,R-\d{6},/.test(l))).toBe(true);
    expect(lines).toHaveLength(6);
    const txs = (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.environment === 'test');
    for (const t of txs) {
      const line = lines.find((l) => l.includes(t.reference));
      expect(line, t.reference).toBeDefined();
      expect(line).toContain(`${t.status},${t.amount},${t.fee}`);
      expect(line).toContain(t.clientReference ?? 'missing');
      // The number as people write it, so a spreadsheet keeps it as text (not 2.33E+11).
      expect(line).toContain(`,0${t.msisdn.slice(3, 5)} ${t.msisdn.slice(5, 8)} ${t.msisdn.slice(8)},`);
    }
    // "Export today", next to "Export range": today's payments only, named for today.
    await tabTo(page, /^Export today$/);
    const [todays] = await Promise.all([page.waitForEvent('download'), enter(page)]);
    const day = /(\d{4}-\d{2}-\d{2})\.csv$/.exec(todays.suggestedFilename())?.[1];
    expect(todays.suggestedFilename()).toBe(`momo-takings-test-${day}_${day}.csv`);
    const todayLines = (await readFile((await todays.path()) as string, 'utf8')).trim().split('\r\n');
    expect(todayLines.slice(1).every((l) => l.startsWith(`${day},`))).toBe(true);
    expect(todayLines).toHaveLength(6); // every sale of this file was today
  });

  it('lists a payment still waiting for a result apart from the figures, flags it when overdue, until its result arrives', async () => {
    const { page } = till.get();
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    clock.hold(); // the customer answers once the owner has seen it waiting
    await sellToWaiting(page, '6.4', '0241236606');
    await stopWaiting(page);
    await goTo(page, 'Takings'); // leaving the owner screens locked them
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    await page.getByRole('heading', { name: 'Takings' }).waitFor();
    await expect
      .poll(() => text(page, 'awaiting-summary'))
      .toBe('1 payment from this till, GH₵6.40 in all: not in the figures here until their results arrive.');
    expect(await page.getByTestId('awaiting-overdue').count()).toBe(0); // seconds old, not overdue
    expect(await text(page, 'today-count')).toBe('3 / 5');
    // A quarter of an hour later, still no result: the owner is told what to do.
    coreClockAheadMs = 16 * 60_000;
    await page.locator('#range-from').focus();
    await tabTo(page, /^Show range$/); // reads today's figures and the waiting ones again
    await enter(page);
    await expect.poll(() => page.getByTestId('awaiting-overdue').count()).toBe(1);
    expect(await text(page, 'awaiting-overdue')).toMatch(/^1 of them has waited more than 15 minutes.*replay it/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'takings-awaiting');
    // History flags it too, and its detail says what to do.
    await goTo(page, 'History');
    await focused(page, 'history-search');
    const first = page.getByTestId('history-row').first();
    await expect.poll(() => first.textContent()).toMatch(/GH₵6\.40.*Pending no result after 15 min/);
    expect(await page.getByTestId('history-overdue').count()).toBe(1); // the paid ones are not flagged
    await tabTo(page, /^Open/);
    await enter(page);
    await focused(page, 'detail-title');
    expect(await text(page, 'detail-overdue')).toMatch(/^No result after 15 minutes.*Do not hand over goods.*replay it/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'history-overdue');
    await tabTo(page, /^Back to the list$/);
    await enter(page);
    await focused(page, 'history-search'); // the focus comes back to the list
    coreClockAheadMs = 0;
    clock.release();
    await expect
      .poll(async () => (await till.get().invoke('payments:pending', {})) as { items: unknown[] }, { timeout: 15_000 })
      .toEqual({ items: [], leftOpen: [] });
    await goTo(page, 'Takings'); // History is not an owner screen: the PIN again
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    await expect.poll(() => text(page, 'today-count')).toBe('4 / 6');
    expect(await page.getByTestId('awaiting').count()).toBe(0);
  });

  it('shows both environments with masked secrets and tests the TEST connection', async () => {
    const { page } = till.get();
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await text(page, 'test-secretKey-hint')).toMatch(/^Saved: sk_test_•+[A-Za-z0-9]{4}$/);
    expect(await text(page, 'live-secretKey-hint')).toBe('Saved: none');
    const html = await page.content();
    expect(html).not.toMatch(/sk_test_[A-Za-z0-9]{8,}/);
    await tabTo(page, /^Test TEST connection$/);
    await enter(page);
    await expect.poll(() => text(page, 'test-test-result')).toMatch(/^Connected/);
    expect(await axe(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings');
  });

  it('refuses to switch to LIVE while the LIVE settings are incomplete, listing what is missing before any PIN', async () => {
    const { page } = till.get();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^Switch to LIVE/);
    await enter(page);
    // What is missing comes first; no PIN is asked and no warning shown while LIVE is impossible.
    await focused(page, 'live-missing-title');
    expect(await text(page, 'live-missing-title')).toBe('LIVE cannot be switched on yet');
    expect(await page.getByTestId('live-missing-item').count()).toBe(6);
    expect(await page.locator('#switch-pin').count()).toBe(0);
    await enter(page); // a reflex Enter on the list does nothing
    expect(await page.locator('#switch-pin').count()).toBe(0);
    expect(await text(page, 'env-badge')).toBe('TEST');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'settings-live-refused');
    await tabTo(page, /^Close$/);
    await enter(page);
    const status = (await till.get().invoke('app:status', {})) as { environment: string };
    expect(status.environment).toBe('test');
  });

  it('names the field when LIVE details are wrong, keeping everything typed', async () => {
    const { page } = till.get();
    await page.locator('#live-baseUrl').focus();
    await page.keyboard.type('https://pay.example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('MCH_ABCDEFGHJKLM');
    await page.keyboard.press('Tab');
    await page.keyboard.type('pk_live_abc12345');
    await page.keyboard.press('Tab');
    await page.keyboard.type('sk_test_0123456789abcdef0123');
    await enter(page);
    await focused(page, 'live-secretKey');
    expect(await text(page, 'live-secretKey-error')).toMatch(/TEST secret key; LIVE needs one starting sk_live_/);
    expect(await page.getAttribute('#live-secretKey', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#live-baseUrl')).toBe('https://pay.example.com');
    expect(await page.inputValue('#live-merchantId')).toBe('MCH_ABCDEFGHJKLM');
    expect(await page.inputValue('#live-secretKey')).toBe('sk_test_0123456789abcdef0123');
    expect(await text(page, 'live-secretKey-hint')).toBe('Saved: none');
    expect(await axe(page)).toEqual([]);
  });

  it('changes the PIN; afterwards only the new one unlocks', async () => {
    const { page } = till.get();
    await page.locator('#change-current').focus();
    await page.keyboard.type(PIN);
    await page.keyboard.press('Tab');
    await page.keyboard.type('8642');
    await page.keyboard.press('Tab');
    await page.keyboard.type('8642');
    await enter(page);
    await page.getByText('PIN changed.').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^Lock$/);
    await enter(page);
    // The LIVE details refused above are still in their boxes: locking would drop them, so it asks first.
    await page.getByTestId('leave-dialog').waitFor();
    expect(await text(page, 'leave-sections')).toBe('Not saved yet: LIVE environment.');
    await page.keyboard.press('Tab');
    await focusedText(page, /^Discard changes$/);
    await enter(page);
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    expect(await text(page, 'owner-pin-error')).toBe('That PIN is not right.');
    await page.keyboard.type('8642');
    await enter(page);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
  });

  it("gives the cashier the revoked key's message, keeping what was typed", async () => {
    const { page } = till.get();
    const settings = await testSettings();
    await revokeKey(settings.baseUrl, settings.publicKeyId);
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    await sell(page, '5', '0241234580');
    await expect
      .poll(() => text(page, 'charge-error'), { timeout: 15_000 })
      .toMatch(/revoked or is wrong.*The owner must update the keys in Settings/);
    await focusedText(page, /^Charge$/); // the Charge button, so Enter tries again once the key is fixed
    expect(await page.evaluate(() => (document.activeElement as HTMLButtonElement).type)).toBe('submit');
    expect(await page.inputValue('#amount')).toBe('GH₵5');
    expect(await page.inputValue('#phone')).toBe('024 123 4580');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-revoked-key');
  });
});
