/**
 * Staff at the keyboard: the first start sets the owner PIN, the owner adds two cashiers, they alternate
 * sales switching by PIN (each payment records who started it), a cashier is refused Settings in the UI and
 * by a direct IPC call, the till locks itself while a payment waits and the result is shown afterwards with
 * who started it, and the owner reads the audit log.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, enter, resultTitle, screenshot, sell, text } from '../browser-bridge/cashier.js';
import { signIn, switchPerson } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
// The core's clock, moved on by the idle-lock test (the till locks after 5 minutes without use).
let coreClockAheadMs = 0;
const till = useTill(
  () => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock, tillName: 'Front counter', now: () => Date.now() + coreClockAheadMs }),
  'show',
);
afterEach(() => clock.release());

const OWNER = '2468';
const KOFI = '1357';
const AMA = '2580';

const tabs = (page: Page) => page.getByRole('navigation', { name: 'Till sections' }).getByRole('button').allTextContents();

describe('staff', () => {
  it('the first start asks for the owner PIN and refuses one that is all one digit', async () => {
    const { page } = till.get();
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'first-start');
    await page.locator('#first-new').fill('1111');
    await page.locator('#first-again').fill('1111');
    await page.getByRole('button', { name: 'Set the PIN' }).click();
    expect(await text(page, 'first-pin-error')).toMatch(/all one digit/);
    await page.locator('#first-new').fill(OWNER);
    await page.locator('#first-again').fill(OWNER);
    await page.getByRole('button', { name: 'Set the PIN' }).click();
    await page.locator('#amount').waitFor();
    expect(await tabs(page)).toEqual(['Charge', 'History', 'Takings', 'Day close', 'Settings', 'Staff', 'Audit log']);
    expect(await till.get().invoke('app:status', {})).toMatchObject({ pinSet: true, caller: 'owner' });
  });

  it('the owner adds two cashiers; a PIN someone else has is refused and the name typed is kept', async () => {
    const { page } = till.get();
    await page.getByRole('button', { name: 'Staff', exact: true }).click();
    await page.getByRole('heading', { name: 'Staff' }).waitFor();
    const add = async (name: string, pin: string) => {
      await page.locator('#staff-new-name').fill(name);
      await page.locator('#staff-new-pin').fill(pin);
      await page.locator('#staff-new-again').fill(pin);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await add('Kofi', KOFI);
    await page.getByRole('cell', { name: 'Kofi', exact: true }).waitFor();
    await add('Ama', KOFI);
    expect(await text(page, 'staff-new-pin-error')).toMatch(/Another person on this till already has this PIN/);
    expect(await page.locator('#staff-new-name').inputValue()).toBe('Ama');
    await add('Ama', AMA);
    await page.getByRole('cell', { name: 'Ama', exact: true }).waitFor();
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'staff');
  });

  it('two cashiers alternate sales, switching by PIN; each payment records who started it', async () => {
    const { page } = till.get();
    await switchPerson(page);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    await signIn(page, KOFI, 'Kofi');
    expect(await tabs(page)).toEqual(['Charge', 'History', 'Shift']);
    await sell(page, '12', '0241234567');
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'started-by')).toBe('Started by Kofi');
    await enter(page); // New sale

    await switchPerson(page);
    await signIn(page, AMA, 'Ama');
    await sell(page, '7', '0201234568');
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'started-by')).toBe('Started by Ama');
    await enter(page);

    const history = (await till.get().invoke('history:search', { page: 0, pageSize: 10 })) as {
      items: Array<{ startedBy: string | null }>;
    };
    // A cashier's history holds their own shift's payments only (the core scopes history:search).
    expect(history.items.map((p) => p.startedBy)).toEqual(['Ama']);
  });

  it('a cashier is refused Settings: no such section, and a direct IPC call gets FORBIDDEN', async () => {
    const { page } = till.get();
    expect(await tabs(page)).not.toContain('Settings');
    const refusal = await page.evaluate(() =>
      window.momo.invoke('settings:get', {}).then(
        () => 'allowed',
        (e: { code: string; message: string }) => `${e.code}: ${e.message}`,
      ),
    );
    expect(refusal).toMatch(/^FORBIDDEN: Only the owner can do this/);
  });

  it('locks itself while a payment waits; the result is shown afterwards with who started it', async () => {
    const { page } = till.get();
    clock.hold(); // the customer answers only after the lock
    await sell(page, '6.4', '0241236606');
    await page.getByRole('heading', { name: 'Ask the customer to approve on their phone' }).waitFor();
    coreClockAheadMs += 6 * 60_000; // 6 minutes without use: the next call finds the till idle
    await page.getByRole('heading', { name: 'Who is selling?' }).waitFor({ timeout: 20_000 });
    expect(await page.getByText('The till locked itself after a while without use.').count()).toBe(1);
    clock.release();
    await signIn(page, KOFI, 'Kofi');
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'started-by')).toBe('Started by Ama');
    // Kofi's receipts are his own shift's: the core refuses him Ama's, and the screen says who prints it.
    await expect.poll(() => text(page, 'print-not-yours')).toBe('Its receipt is printed by Ama or a manager.');
    await enter(page);
  });

  it('the owner reads the audit log: sign-ins, the failed PIN, staff added', async () => {
    const { page } = till.get();
    await switchPerson(page);
    await page.locator('#sign-in-pin').fill('9999');
    await page.keyboard.press('Enter');
    expect(await text(page, 'sign-in-error')).toBe('That PIN is not right.');
    await signIn(page, OWNER, 'Owner');
    await page.getByRole('button', { name: 'Audit log', exact: true }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = await page.locator('.audit-table tbody tr').allTextContents();
    expect(rows.some((r) => r.includes('Kofi') && r.includes('Signed in'))).toBe(true);
    expect(rows.some((r) => r.includes('Wrong PIN'))).toBe(true);
    expect(rows.some((r) => r.includes('Staff added') && r.includes('Ama (cashier)'))).toBe(true);
    expect(rows.some((r) => r.includes('Till locked') && r.includes('idle'))).toBe(true);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'audit-log');

    // Dates are typed day first, as on Takings; a mistake is named next to its box and what was typed stays.
    const dayFirst = (d: Date) => d.toISOString().slice(0, 10).split('-').reverse().join('/');
    const count = () => page.locator('.audit-table tbody tr').count();
    await page.locator('#audit-from').fill('31/13/2026');
    await page.keyboard.press('Enter');
    await page.locator('#audit-from-error').waitFor();
    expect(await page.inputValue('#audit-from')).toBe('31/13/2026');
    expect(await count()).toBe(rows.length);
    await page.locator('#audit-from').fill(dayFirst(new Date(Date.now() + 86_400_000)));
    await page.keyboard.press('Enter');
    await expect.poll(count).toBe(0);
    await page.locator('#audit-from').fill(dayFirst(new Date()));
    await page.keyboard.press('Enter');
    await expect.poll(count).toBeGreaterThanOrEqual(rows.length);
    expect(await page.locator('#audit-from-error').count()).toBe(0);
  });

  it("the owner's takings break the day down by cashier, from who started each payment", async () => {
    const { page } = till.get();
    await page.getByRole('button', { name: 'Takings', exact: true }).click();
    await page.getByRole('heading', { name: 'Takings' }).waitFor();
    await expect.poll(() => text(page, 'by-cashier')).toContain('Kofi');
    const names = await page.getByTestId('by-cashier').locator('tbody th').allTextContents();
    expect(names.sort()).toEqual(['Ama', 'Kofi']); // every sale above was started by one of them
    expect(await axe(page)).toEqual([]);
  });
});
