/**
 * Settle by hand, then a disagreeing late webhook, at the real till in Chromium with the
 * embedded sandbox and relay: a cashier sells to a number ending 07 (authorised, its webhook held until
 * replayed), the payment becomes overdue, a manager settles it as NOT PAID with a note (a first try without
 * the note is refused and loses nothing), takings count it as settled by hand; then the delivery is replayed
 * from the sandbox's own dashboard page: the SUCCESS wins, the payment becomes PAID, takings follow, and the
 * owner sees an alert on every screen until they acknowledge it.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, screenshot, sellToWaiting, stopWaiting, text } from '../browser-bridge/cashier.js';
import { switchTo } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

// The sale is made on a core clock 16 minutes behind, then the core's clock is put right: the payment is
// overdue at real time, so everything after it (the settling, Takings' today) is on the browser's clock and
// day; a core clock moved ahead instead would settle it tomorrow near midnight while the screens ask today.
// (The idle lock is set longer than the jump.)
let coreClockAheadMs = -16 * 60_000;
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  tillName: 'Front counter',
  now: () => Date.now() + coreClockAheadMs,
  idleLockMs: 60 * 60_000,
}));

const OWNER = '2468';
const MARY = '3579';
const KOFI = '1357';
const NOTE = 'Dashboard shows no payment from this number';

async function section(page: Page, name: 'Charge' | 'History' | 'Takings' | 'Audit log', heading = name): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  if (heading !== 'Charge') await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** The sandbox's dashboard in its own page, as a tester uses it: Replay on the delivery of `reference`. */
async function replayFromDashboard(reference: string): Promise<void> {
  const dashboard = await till.browser().newPage();
  try {
    const base = till.get().sandboxUrl();
    const list = (await (await fetch(new URL('/dashboard/api/deliveries', base))).json()) as {
      data: { id: string; reference: string; status: string }[];
    };
    const delivery = list.data.find((d) => d.reference === reference);
    expect(delivery?.status).toBe('PENDING'); // 07: authorised, its webhook never sent by itself
    await dashboard.goto(new URL('/dashboard/', base).href);
    const card = dashboard.locator(`[data-delivery-id="${delivery?.id}"]`);
    await card.getByRole('button', { name: 'Replay' }).click();
    await card.locator('tr[data-attempt="1"]').waitFor();
  } finally {
    await dashboard.close();
  }
}

describe('settle by hand', () => {
  let reference = '';

  it('a cashier sells to a number ending 07: authorised, but no result ever comes', async () => {
    const { invoke } = till.get();
    // The owner and staff as the owner sets them up (staff.test.ts does it at the keyboard).
    await invoke('owner:setPin', { pin: OWNER });
    await invoke('staff:add', { name: 'Mary', role: 'manager', pin: MARY });
    await invoke('staff:add', { name: 'Kofi', role: 'cashier', pin: KOFI });
    await invoke('session:lock', {});
    await till.get().reload();
    const { page } = till.get();
    await page.getByRole('heading', { name: 'Who is selling?' }).waitFor();
    await switchTo(page, KOFI, 'Kofi');
    await sellToWaiting(page, '12.5', '0241234507');
    await stopWaiting(page);
    const [payment] = ((await invoke('payments:pending', {})) as { items: { reference: string | null; state: string }[] }).items;
    expect(payment?.state).toBe('awaiting_customer');
    reference = payment?.reference ?? '';
    expect(reference).toMatch(/^TX_/);
  });

  it('once overdue, a manager settles it as not paid; the note is required and nothing typed is lost', async () => {
    const { page } = till.get();
    coreClockAheadMs = 0;
    await switchTo(page, MARY, 'Mary');
    await section(page, 'History');
    await page.getByTestId('history-overdue').waitFor();
    await page.getByRole('button', { name: /^Open/ }).first().click();
    await page.getByRole('button', { name: 'Settle by hand' }).click();
    await page.getByTestId('settle-form').waitFor();
    await page.getByRole('radio', { name: /Not paid/ }).check();
    expect(await text(page, 'settle-effect')).toMatch(/as NOT PAID.*If the service's own result arrives later and disagrees/);
    await page.getByRole('button', { name: 'Record as not paid' }).click();
    expect(await text(page, 'settle-note-error')).toMatch(/^Write a note/);
    expect(await page.getByRole('radio', { name: /Not paid/ }).isChecked()).toBe(true); // the choice is kept
    await page.locator('#settle-note').fill(NOTE);
    expect(await page.getByTestId('settle-note-error').count()).toBe(0); // the fixed box's error goes
    await page.getByTestId('settle-effect').scrollIntoViewIfNeeded();
    await screenshot(page, 'settle-by-hand-form');
    await page.getByRole('button', { name: 'Record as not paid' }).click();
    await expect.poll(() => text(page, 'detail-settled-by-hand')).toMatch(new RegExp(`^NOT PAID by Mary, .*Note: ${NOTE}`));
    expect(await text(page, 'late-notice')).toMatch(/^NOT PAID: GH₵12\.50/); // Kofi stopped waiting for it
    expect(await page.locator('#detail-title').textContent()).toMatch(/Not paid/);
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to the list' }).click();
    expect(await text(page, 'history-settled-by-hand')).toBe('settled by hand');
  });

  it('takings count it as settled by hand: one payment, not paid', async () => {
    const { page } = till.get();
    await section(page, 'Takings');
    await expect.poll(() => text(page, 'today-by-hand')).toMatch(/^Settled by hand: 1 payment \(0 paid, 1 not paid\), GH₵0\.00/);
    expect(await text(page, 'today-count')).toBe('0 / 1');
    expect(await text(page, 'today-gross')).toBe('GH₵0.00');
  });

  it("the dashboard's replay delivers the SUCCESS: it wins, the payment is PAID and takings follow", async () => {
    const { page, invoke } = till.get();
    await replayFromDashboard(reference);
    await expect
      .poll(async () => (await invoke('history:search', { query: reference })) as { items: { state: string; settledByHand: unknown }[] })
      .toMatchObject({ items: [{ state: 'success', settledByHand: { outcome: 'not_paid', check: 'overridden' } }] });
    // The notice Kofi's stopped sale raised when it was settled as NOT PAID now says what counts.
    await expect.poll(() => text(page, 'late-notice')).toMatch(/^PAID: GH₵12\.50 from 024 123 4507/);
    await page.getByRole('button', { name: /^Dismiss/ }).click();
    await section(page, 'History');
    await section(page, 'Takings'); // read again
    await expect.poll(() => text(page, 'today-count')).toBe('1 / 1');
    expect(await text(page, 'today-gross')).toBe('GH₵12.50');
    expect(await page.getByTestId('today-by-hand').count()).toBe(0); // the service's result is no longer the hand's
    expect(await page.getByTestId('owner-alerts').count()).toBe(0); // a manager is not the owner
  });

  it('the owner sees the alert on every screen until they acknowledge it', async () => {
    const { page, invoke } = till.get();
    await switchTo(page, OWNER, 'Owner');
    await expect.poll(() => text(page, 'owner-alert')).toMatch(/GH₵12\.50 from 024 123 4507 was settled by hand as NOT PAID by Mary/);
    expect(await text(page, 'owner-alert')).toContain(`says PAID (reference ${reference})`);
    await section(page, 'History');
    await page.getByRole('button', { name: /^Open/ }).first().click();
    expect(await text(page, 'detail-settled-by-hand')).toMatch(/disagreed: the service's result counts/);
    expect(await page.locator('#detail-title').textContent()).toMatch(/Paid/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'settle-by-hand');
    await section(page, 'Audit log');
    expect(await page.getByTestId('owner-alerts').count()).toBe(1); // still there on another screen
    // The audit log is read after the screen opens: wait for its rows rather than reading an empty table.
    await expect
      .poll(() => page.locator('.audit-table tbody tr').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`Mary.*Settled by hand.*not paid; note: ${NOTE}`))]));
    await page.getByRole('button', { name: /^Acknowledge/ }).click();
    await expect.poll(() => page.getByTestId('owner-alerts').count()).toBe(0);
    expect(await invoke('alerts:list', {})).toEqual({ items: [] });
  });
});
