/**
 * Closing the till's WINDOW (or quitting) with unsaved Settings edits.
 * While any section holds edits not saved, the page's beforeunload holds the close, so the shell can ask
 * (electron/main/close-question.ts; "Keep editing" is its default). Here Chromium stands in for the shell:
 * `page.close({ runBeforeUnload: true })` is the window's close button, and its 'beforeunload' dialog is
 * the question. Dismissing it keeps the page and the edit; with everything saved the window closes at once.
 * The page is closed for good at the end, so this file has a till of its own.
 */
import { describe, expect, it } from 'vitest';
import { chooseOwnerPin, closeWindow, enter, goTo, retype, text } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, tillName: 'Front counter', idleLockMs: 60 * 60_000 }));
const PIN = '2468';

const tillName = async () => ((await till.get().invoke('app:status', {})) as { tillName: string }).tillName;

describe("closing the till's window with unsaved Settings edits", () => {
  it('asks first; keeping the edits leaves the window open with the edit as typed, and nothing saved', async () => {
    const { page } = till.get();
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    await chooseOwnerPin(page, PIN, 'Settings');
    await retype(page, 'till-name', 'Back counter');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');

    // Without the question the window would close at once and the edit be lost without a word.
    const question = await closeWindow(page);
    expect(question?.type()).toBe('beforeunload');
    await question?.dismiss(); // "Keep editing"
    expect(page.isClosed()).toBe(false);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await page.inputValue('#till-name')).toBe('Back counter');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');
    expect(await tillName()).toBe('Front counter');

    // It asks again every time, for as long as the edit is unsaved.
    const again = await closeWindow(page);
    expect(again?.type()).toBe('beforeunload');
    await again?.dismiss();
    expect(await page.inputValue('#till-name')).toBe('Back counter');
  });

  it('closes at once, with no question, once everything is saved', async () => {
    const { page } = till.get();
    await page.locator('#till-name').focus();
    await enter(page); // saves this section
    await expect.poll(() => page.getByTestId('till-form-unsaved').count()).toBe(0);
    expect(await tillName()).toBe('Back counter');
    // Still on Settings, its sections on the page, none of them unsaved.
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    expect(await closeWindow(page)).toBeNull();
    expect(page.isClosed()).toBe(true);
  });
});
