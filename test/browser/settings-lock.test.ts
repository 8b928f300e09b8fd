/**
 * The core locks the owner screens on its own (idle time, a laptop's sleep and wake,
 * a clock jump) while Settings holds edits not saved yet.
 * - In the one-person shop the edits are kept in the screens' memory only (not on disk, not sent to the
 *   core), never shown while locked, and back after the PIN, marked unsaved, with a notice; a secret
 *   typed before the lock is not kept, and the notice says so.
 * - With staff, Settings is not left on the page under the lock; the owner signing in again gets the
 *   edits back, but once somebody else has signed in they are dropped, never shown to anyone.
 * The core's clock is moved on as a laptop's would be after sleeping; the core notices it by itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, chooseOwnerPin, enter, focused, focusedText, goTo, retype, screenshot, text } from '../browser-bridge/cashier.js';
import { signIn, switchPerson } from '../browser-bridge/sign-in.js';
import { useIdleLockTill } from '../browser-bridge/suite.js';

const till = useIdleLockTill();

const PIN = '2468';
const EFUA = '1470';
const SECRET = 'sk_test_typedbeforethelock0123';
const KEPT_NOTICE = 'Your unsaved changes from before the lock were kept — save or discard them.';

/** The laptop slept and woke: the core's clock is past the idle time, and the core locks on its own. */
const sleepAndWake = till.sleepAndWake;

/** Every file the till wrote in its data folder, as text (SQLite pages included), to look for what was typed. */
function everythingOnDisk(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}

async function storedInPage(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } }));
}

const signInHeading = (page: Page) => page.getByRole('heading', { name: 'Who is selling?' });

describe('Settings edits when the core locks by itself', () => {
  it('one-person shop: kept in memory through the lock, back after the PIN, marked unsaved; the secret is not kept', async () => {
    const { page, dataDir, invoke } = till.get();
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Choose the owner PIN' }).waitFor();
    await chooseOwnerPin(page, PIN, 'Settings');
    await retype(page, 'till-name', 'Back counter');
    await retype(page, 'counter-confirm-above', '2,000');
    await retype(page, 'test-secretKey', SECRET);
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');

    sleepAndWake();
    await focused(page, 'owner-pin');
    // Locked: neither the settings nor what was typed is on the page.
    expect(await page.locator('#till-name').count()).toBe(0);
    const locked = await page.content();
    expect(locked).not.toContain('Back counter');
    expect(locked).not.toContain(SECRET);
    // Kept in memory only: not sent to the core, not written to disk or to the page's storage.
    expect(((await invoke('app:status', {})) as { tillName: string }).tillName).toBe('Front counter');
    for (const typed of ['Back counter', SECRET]) {
      expect(everythingOnDisk(dataDir)).not.toContain(typed);
      expect(await storedInPage(page)).not.toContain(typed);
    }

    await page.keyboard.type(PIN);
    await enter(page);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // Settings comes back with the edits, not only with what was saved.
    await expect.poll(() => page.inputValue('#till-name')).toBe('Back counter');
    expect(await page.inputValue('#counter-confirm-above')).toBe('2,000');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');
    expect(await text(page, 'counter-form-unsaved')).toBe('Unsaved changes');
    expect(await text(page, 'kept-notice')).toBe(KEPT_NOTICE);
    expect(await text(page, 'kept-sections')).toBe('Not saved yet: This till, Amounts at the counter.');
    // The secret key was not kept: its box is empty, and the notice says to type it again.
    expect(await page.inputValue('#test-secretKey')).toBe('');
    expect(await page.getByTestId('test-form-unsaved').count()).toBe(0);
    expect(await text(page, 'kept-secrets')).toBe(
      'Not kept, as secrets never are: TEST environment secret key. Type it again to change it.',
    );
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'settings-kept-after-lock');
  });

  it('the kept edits are saved or discarded as any unsaved edit; a later lock with nothing unsaved shows no notice', async () => {
    const { page, invoke } = till.get();
    // Leaving still asks, naming the kept sections; a reflex Enter keeps them.
    await goTo(page, 'Charge');
    await page.getByTestId('leave-dialog').waitFor();
    expect(await text(page, 'leave-sections')).toBe('Not saved yet: This till, Amounts at the counter.');
    await enter(page);
    // Save the till's section: now in the core; discard the counter's on leaving.
    await page.locator('#till-name').focus();
    await enter(page);
    await expect.poll(() => page.getByTestId('till-form-unsaved').count()).toBe(0);
    expect(((await invoke('app:status', {})) as { tillName: string }).tillName).toBe('Back counter');
    await goTo(page, 'Charge');
    await page.getByTestId('leave-dialog').waitFor();
    expect(await text(page, 'leave-sections')).toBe('Not saved yet: Amounts at the counter.');
    await page.keyboard.press('Tab');
    await focusedText(page, /^Discard changes$/);
    await enter(page);
    await focused(page, 'amount');

    await goTo(page, 'Settings');
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    await expect.poll(() => page.inputValue('#till-name')).toBe('Back counter');
    expect(await page.getByTestId('kept-notice').count()).toBe(0);
    expect(await page.getByTestId('counter-form-unsaved').count()).toBe(0);

    sleepAndWake();
    await focused(page, 'owner-pin');
    await page.keyboard.type(PIN);
    await enter(page);
    await expect.poll(() => page.inputValue('#till-name')).toBe('Back counter');
    expect(await page.getByTestId('kept-notice').count()).toBe(0);
    expect(await page.getByTestId('till-form-unsaved').count()).toBe(0);
  });

  it('with staff: Settings is not left under the lock, and the same owner signing in again gets the edits back', async () => {
    const t = till.get();
    await t.invoke('owner:unlock', { pin: PIN });
    await t.invoke('staff:add', { name: 'Efua', role: 'manager', pin: EFUA });
    await t.invoke('session:lock', {});
    await t.reload();
    const { page } = t;
    await signIn(page, PIN, 'Owner');
    await goTo(page, 'Settings');
    await retype(page, 'till-name', 'Side counter');

    sleepAndWake();
    await signInHeading(page).waitFor({ timeout: 8_000 });
    // Settings leaves the page under the sign-in, not merely hidden with what was typed.
    expect(await page.locator('#till-name').count()).toBe(0);
    expect(await page.content()).not.toContain('Side counter');

    await signIn(page, PIN, 'Owner');
    await expect.poll(() => page.inputValue('#till-name')).toBe('Side counter');
    expect(await text(page, 'till-form-unsaved')).toBe('Unsaved changes');
    expect(await text(page, 'kept-notice')).toBe(KEPT_NOTICE);
  });

  it('with staff: once somebody else signs in after the lock, the kept edits are dropped, never shown', async () => {
    const { page } = till.get();
    expect(await page.inputValue('#till-name')).toBe('Side counter');
    sleepAndWake();
    await signInHeading(page).waitFor({ timeout: 8_000 });
    await signIn(page, EFUA, 'Efua');
    expect(await page.content()).not.toContain('Side counter');
    expect(await page.getByTestId('kept-notice').count()).toBe(0);

    await switchPerson(page);
    await signIn(page, PIN, 'Owner');
    await goTo(page, 'Settings');
    await expect.poll(() => page.inputValue('#till-name')).toBe('Back counter');
    expect(await page.getByTestId('kept-notice').count()).toBe(0);
    expect(await page.getByTestId('till-form-unsaved').count()).toBe(0);
  });
});
