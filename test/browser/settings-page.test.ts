/**
 * At the keyboard on the Settings page:
 * - "Switch to LIVE…" first lists what LIVE still lacks (as the core's own check finds it) and offers no
 *   PIN and no real-money warning until nothing is missing;
 * - saving one section keeps another section's unsaved edits, marks them unsaved, and leaving Settings with
 *   unsaved edits asks "Discard unsaved changes?" (a reflex Enter keeps them);
 * - the first visit's PIN question speaks a shop owner's words;
 * - at 800×600 the list of what is missing and the question on leaving are not clipped.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, chooseOwnerPin, enter, focused, focusedText, goTo, retype, screenshot, tabTo, text } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, tillName: 'Front counter', idleLockMs: 60 * 60_000 }));
const PIN = '2468';
const LIVE_TOKEN = `rt_${'A'.repeat(43)}`;

/** Nothing inside the element is cut off: it scrolls neither way and sits inside the window. */
async function clipped(page: Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).evaluate((root) => {
    const found: string[] = [];
    for (const el of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        found.push(`${el.tagName} "${(el.textContent ?? '').slice(0, 30)}" scrolls sideways`);
      const box = el.getBoundingClientRect();
      if (box.width > 0 && (box.left < 0 || box.right > window.innerWidth))
        found.push(`${el.tagName} "${(el.textContent ?? '').slice(0, 30)}" leaves the window`);
    }
    return found;
  });
}

async function openLiveSwitch(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, /^Switch to LIVE/);
  await enter(page);
}

describe('the Settings page', () => {
  it("asks for the owner PIN on the first visit in a shop owner's words", async () => {
    const { page } = till.get();
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    const words = (await page.locator('.pin-form p').first().textContent()) ?? '';
    await chooseOwnerPin(page, PIN, 'Settings');
    expect(words).not.toMatch(/owner screens are opened/);
    expect(words).toBe(
      'This PIN keeps the takings, the day’s close and the settings for you alone. Choose 4 to 6 digits and do not tell it to your cashiers.',
    );
  });

  it('lists what LIVE lacks before anything else, with no PIN box and no warning while something is missing', async () => {
    const { page } = till.get();
    await openLiveSwitch(page);
    await page.getByTestId('live-missing').waitFor();
    // The list first: no PIN box and no real-money warning while LIVE is impossible.
    expect(await page.locator('#switch-pin').count()).toBe(0);
    expect(await page.locator('#env-confirm-text').count()).toBe(0);
    await focused(page, 'live-missing-title');
    expect(await text(page, 'live-missing-title')).toBe('LIVE cannot be switched on yet');
    expect(await page.getByTestId('live-missing-item').allTextContents()).toEqual([
      'Service address (base URL)',
      'Merchant ID',
      'Public key id',
      'Secret key',
      'Relay address',
      'Relay token',
    ]);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'settings-live-missing');
    await page.setViewportSize({ width: 800, height: 600 });
    expect(await clipped(page, 'live-missing')).toEqual([]);
    await page.setViewportSize({ width: 1024, height: 600 });
    // A reflex Enter closes the list; it never asks for a PIN.
    await tabTo(page, /^Close$/);
    await enter(page);
    expect(await page.getByTestId('live-missing').count()).toBe(0);
    expect(await page.locator('#switch-pin').count()).toBe(0);
    expect(await text(page, 'env-badge')).toBe('TEST');
  });

  it('names only what is still missing, from the core, then asks for the PIN once nothing is', async () => {
    const { page } = till.get();
    await retype(page, 'live-baseUrl', 'https://pay.example.com');
    await retype(page, 'live-merchantId', 'MCH_ABCDEFGHJKLM');
    await retype(page, 'live-publicKeyId', 'pk_live_abc12345');
    await retype(page, 'live-secretKey', 'sk_live_0123456789abcdef0123');
    await retype(page, 'live-relayUrl', 'https://relay.example.com');
    await enter(page);
    await expect.poll(() => text(page, 'live-save-message')).toBe('LIVE settings saved.');
    await openLiveSwitch(page);
    await page.getByTestId('live-missing').waitFor();
    expect(await page.getByTestId('live-missing-item').allTextContents()).toEqual(['Relay token']);
    expect(await page.locator('#switch-pin').count()).toBe(0);
    // "Fill in the LIVE settings" goes to the first missing box.
    await tabTo(page, /^Fill in the LIVE settings$/);
    await enter(page);
    await focused(page, 'live-relayToken');
    await page.keyboard.type(LIVE_TOKEN);
    await enter(page);
    await expect.poll(() => page.getByTestId('live-relayToken-hint').textContent()).toBe('Saved: yes (hidden)');
    // The list follows what is saved: with nothing missing it has gone, and no PIN was asked on the way.
    await expect.poll(() => page.getByTestId('live-missing').count()).toBe(0);
    expect(await page.locator('#switch-pin').count()).toBe(0);
    await openLiveSwitch(page);
    await focused(page, 'switch-pin');
    expect(await page.textContent('#env-confirm-text')).toMatch(/real money moves/);
    expect(await page.getByTestId('live-missing').count()).toBe(0);
    await tabTo(page, /^Cancel$/);
    await enter(page);
    expect(await text(page, 'env-badge')).toBe('TEST');
  });

  it('keeps an unsaved edit of one section when another section is saved, and marks it unsaved', async () => {
    const { page } = till.get();
    await retype(page, 'till-name', 'Back counter');
    await retype(page, 'counter-confirm-above', '2,000');
    await enter(page); // saves the counter section only
    await expect.poll(() => text(page, 'counter-form-message')).toBe('Counter settings saved.');
    expect(await page.inputValue('#till-name')).toBe('Back counter');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');
    expect(await page.getByTestId('counter-form-unsaved').count()).toBe(0);
    const status = (await till.get().invoke('app:status', {})) as { tillName: string; counter: { confirmAbove: string } };
    expect(status.counter.confirmAbove).toBe('2000.00');
    expect(status.tillName).toBe('Front counter');
  });

  it('asks before leaving Settings with unsaved edits; a reflex Enter keeps them', async () => {
    const { page } = till.get();
    // Leaving must not drop the edit without a word.
    await goTo(page, 'Charge');
    await page.getByTestId('leave-dialog').waitFor();
    expect(await text(page, 'leave-title')).toBe('Discard unsaved changes?');
    expect(await text(page, 'leave-sections')).toBe('Not saved yet: This till.');
    await focusedText(page, /^Keep editing$/);
    await page.setViewportSize({ width: 800, height: 600 });
    expect(await clipped(page, 'leave-dialog')).toEqual([]);
    await screenshot(page, 'settings-leave-unsaved');
    await page.setViewportSize({ width: 1024, height: 600 });
    await enter(page);
    expect(await page.getByTestId('leave-dialog').count()).toBe(0);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.inputValue('#till-name')).toBe('Back counter');

    // Escape keeps them too.
    await goTo(page, 'Charge');
    await page.getByTestId('leave-dialog').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('leave-dialog').count()).toBe(0);
    expect(await page.inputValue('#till-name')).toBe('Back counter');

    // Discarding is a deliberate choice: a Tab (which stays inside the question) to reach it.
    await goTo(page, 'Charge');
    await page.getByTestId('leave-dialog').waitFor();
    await page.keyboard.press('Tab');
    await focusedText(page, /^Discard changes$/);
    await page.keyboard.press('Tab');
    await focusedText(page, /^Keep editing$/);
    await page.keyboard.press('Tab');
    await focusedText(page, /^Discard changes$/);
    // Last, as axe-core moved the focus out of the question while it ran (to the tab pressed before it).
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await focused(page, 'amount');
    await goTo(page, 'Settings');
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.inputValue('#till-name')).toBe('Front counter');
  });

  it('leaves Settings without a question once everything is saved', async () => {
    const { page } = till.get();
    await retype(page, 'till-name', 'Back counter');
    await enter(page);
    await expect.poll(() => page.getByTestId('till-form-unsaved').count()).toBe(0);
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    expect(await page.getByTestId('leave-dialog').count()).toBe(0);
    expect(((await till.get().invoke('app:status', {})) as { tillName: string }).tillName).toBe('Back counter');
  });
});
