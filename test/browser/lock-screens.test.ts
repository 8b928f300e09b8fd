/**
 * Whenever the core locks (idle, a laptop's sleep and wake, a clock jump), every screen
 * switches to "Who is selling?" at once, and no screen shows the locked till's refusal as an empty list.
 * The core's clock is moved on here as a laptop's would be after sleeping; the core notices it on its own
 * (no call from the screens needed) and the screens follow its lock event.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { resultTitle, sell, text } from '../browser-bridge/cashier.js';
import { managerAtTheTill, signIn, signInHeading } from '../browser-bridge/sign-in.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

let coreClockAheadMs = 0;
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, idleLockMs: 60_000, now: () => Date.now() + coreClockAheadMs }));

const OWNER = '2468';
const EFUA = '1470';

/** Efua (manager) signed in through the screens. */
async function efuaAtTheTill(): Promise<Page> {
  return managerAtTheTill(till.get(), OWNER, EFUA, 'Efua');
}

describe('a lock the screens show', () => {
  it('a clock jump while History is opened: the sign-in screen at once, never "0 payments"', async () => {
    const page = await efuaAtTheTill();
    await sell(page, '12', '0241234567');
    expect(await resultTitle(page)).toBe('PAID');
    // Record every count History shows from now on: a locked till's refusal must never read as "0 payments".
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __counts: string[] }).__counts = seen;
      new MutationObserver(() => {
        const count = document.querySelector('[data-testid="history-count"]');
        if (count && !count.closest('[hidden]')) seen.push(count.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    coreClockAheadMs += 16 * 60_000; // the laptop slept and woke
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await signInHeading(page).waitFor({ timeout: 3_000 });
    expect(await page.getByText('The till locked itself after a while without use.').count()).toBe(1);
    expect(await page.getByTestId('signed-in').count()).toBe(0);
    const counts = await page.evaluate(() => (window as unknown as { __counts: string[] }).__counts);
    expect(counts.filter((c) => /^0 payments$/.test(c))).toEqual([]);
    await signIn(page, EFUA, 'Efua');
    await expect.poll(() => text(page, 'history-count')).toBe('1 payment');
  });

  it('a clock jump with nobody touching the till: the core locks on its own and the screen follows within seconds', async () => {
    const page = await efuaAtTheTill();
    await page.locator('#amount').waitFor();
    coreClockAheadMs += 16 * 60_000;
    await signInHeading(page).waitFor({ timeout: 8_000 });
    expect(await page.getByText('The till locked itself after a while without use.').count()).toBe(1);
  });
});
