/**
 * Closing the till's WINDOW while the lock screen is up and the lock
 * keeps Settings edits that were not saved (settings-lock.test.ts). Closing would lose them as surely as
 * closing with them on the screen, so the window asks the same question (settings-window-close.test.ts),
 * whoever stands at the locked till: it names no value, and "Keep editing" (dismissing it) leaves the lock
 * screen as it was, the edits still kept for the person who typed them. A lock that kept nothing but a
 * secret (secrets are never kept) has nothing to lose: the window closes at once.
 * Chromium stands in for the shell: `page.close({ runBeforeUnload: true })` is the close button and its
 * 'beforeunload' dialog the question. The window closes for good at the end, so this file has a till of its own.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseOwnerPin, closeWindow, enter, focused, goTo, retype, text } from '../browser-bridge/cashier.js';
import { useIdleLockTill } from '../browser-bridge/suite.js';

const till = useIdleLockTill();

const PIN = '2468';

/** The laptop slept and woke: the core's clock is past the idle time, and the core locks on its own. */
async function lockByItself(page: Page): Promise<void> {
  till.sleepAndWake();
  await focused(page, 'owner-pin');
  expect(await page.locator('#till-name').count()).toBe(0);
}

describe("closing the till's window while a lock keeps unsaved Settings edits", () => {
  it('asks first; keeping leaves the lock screen as it was, and the edits come back after the PIN', async () => {
    const { page } = till.get();
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    await chooseOwnerPin(page, PIN, 'Settings');
    await retype(page, 'till-name', 'Back counter');
    await lockByItself(page);

    // Without the question the window would close at once at the lock screen, the kept edits lost without a word.
    const question = await closeWindow(page);
    expect(question?.type()).toBe('beforeunload');
    await question?.dismiss(); // "Keep editing"
    expect(page.isClosed()).toBe(false);
    await focused(page, 'owner-pin');
    expect(await page.content()).not.toContain('Back counter');

    await page.keyboard.type(PIN);
    await enter(page);
    await expect.poll(() => page.inputValue('#till-name')).toBe('Back counter');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');
  });

  it('closes at once when the lock kept nothing but a secret, which is never kept', async () => {
    const { page } = till.get();
    await page.locator('#till-name').focus();
    await enter(page); // saves this section
    await expect.poll(() => page.getByTestId('till-form-unsaved').count()).toBe(0);
    await retype(page, 'test-secretKey', 'sk_test_typedbeforethelock0123');
    await lockByItself(page);
    expect(await closeWindow(page)).toBeNull();
    expect(page.isClosed()).toBe(true);
  });
});
