/**
 * Keys reach only what is on top: a PIN typed at the lock screen goes to the PIN box, whole, and never
 * into the sale that waits behind the lock. Each of the three ways a result ends up behind a lock is
 * walked at the keyboard: Switch after a sale, the idle lock, and a result that arrives under the lock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { enter, focused, resultTitle, sell, sellToWaiting, text } from '../browser-bridge/cashier.js';
import { managerAtTheTill, signInHeading, switchPerson } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
let coreClockAheadMs = 0;
const till = useTill(() => ({
  embeddedTimeScale: TIME_SCALE,
  embeddedClock: clock,
  idleLockMs: 60_000,
  now: () => Date.now() + coreClockAheadMs,
}));
afterEach(() => clock.release());

const OWNER = '2468';
const EFUA = '1470';

async function efuaAtTheTill(): Promise<Page> {
  return managerAtTheTill(till.get(), OWNER, EFUA, 'Efua');
}

/**
 * At the lock, with a PAID result behind it: the PIN typed key by key signs in at once (checked whole, no
 * "not right", so nothing counts toward the lock-out), and the result behind is as it was: its New sale
 * opens an empty amount.
 */
async function typePinAtTheLockAndCheckTheSaleBehind(page: Page): Promise<void> {
  await signInHeading(page).waitFor();
  await focused(page, 'sign-in-pin');
  await page.keyboard.type(EFUA);
  expect(await page.inputValue('#sign-in-pin')).toBe(EFUA);
  await page.keyboard.press('Enter');
  await expect.poll(() => text(page, 'signed-in')).toContain('Efua');
  expect(await page.getByTestId('sign-in-error').count()).toBe(0);
  expect(await resultTitle(page)).toBe('PAID');
  expect(await text(page, 'result-amount')).toBe('GH₵5.00');
  await enter(page); // New sale
  await focused(page, 'amount');
  expect(await page.inputValue('#amount')).toBe('');
}

describe('keys at the lock reach only the lock', () => {
  it('Switch after a sale: the PIN goes whole to the sign-in, none of it into the sale behind', async () => {
    const page = await efuaAtTheTill();
    await sell(page, '5', '0241234561');
    expect(await resultTitle(page)).toBe('PAID');
    await switchPerson(page);
    await typePinAtTheLockAndCheckTheSaleBehind(page);
  });

  it('the idle lock over a result: the PIN goes whole to the sign-in', async () => {
    const page = await efuaAtTheTill();
    await sell(page, '5', '0241234562');
    expect(await resultTitle(page)).toBe('PAID');
    coreClockAheadMs += 16 * 60_000; // nobody touched the till for a while
    await signInHeading(page).waitFor({ timeout: 8_000 });
    await typePinAtTheLockAndCheckTheSaleBehind(page);
  });

  it('a result that arrives under the lock: the PIN goes whole to the sign-in', async () => {
    const page = await efuaAtTheTill();
    clock.hold();
    await sellToWaiting(page, '5', '0241239906'); // a slow approval, held back
    await switchPerson(page);
    clock.release(); // the customer approves while the till is locked
    await page.getByTestId('result-title').waitFor({ state: 'attached', timeout: 30_000 });
    await typePinAtTheLockAndCheckTheSaleBehind(page);
  });

  it('Escape at the lock does not stop waiting for the sale behind it', async () => {
    const page = await efuaAtTheTill();
    clock.hold();
    await sellToWaiting(page, '5', '0241239806');
    await switchPerson(page);
    await focused(page, 'sign-in-pin');
    await page.keyboard.press('Escape');
    await page.keyboard.type(EFUA);
    await page.keyboard.press('Enter');
    await expect.poll(() => text(page, 'signed-in')).toContain('Efua');
    await page.locator('.waiting-screen').waitFor();
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
    await enter(page);
    await focused(page, 'amount');
  });
});
