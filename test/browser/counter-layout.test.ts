/**
 * The screens shops have: from the window's minimum size (electron/main/window.ts) up to
 * 1920×1080 nothing scrolls sideways, touch targets are at least 44×44 CSS px, the layout grows on
 * larger screens, and a late-result notice never moves the form. Screenshots at 800×600 and 1366×768.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, chooseOwnerPin, enter, focused, goTo, resultTitle, screenshot, sellToWaiting } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock, tillName: 'Front counter' }));
afterEach(() => clock.release());

// The window's minimum (minWidth/minHeight in electron/main/window.ts) and the screens shops have.
const SIZES = [
  [800, 560],
  [800, 600],
  [1024, 600],
  [1280, 800],
  [1366, 768],
  [1920, 1080],
] as const;
const SCREENSHOT_SIZES = new Set(['800x600', '1366x768']);

/** Whatever a finger can press that is smaller than 44×44 CSS px (radios and checkboxes count by their label). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [role="button"]')) {
      const target = el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox') ? (el.closest('label') ?? el) : el;
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(target).visibility === 'hidden') continue;
      if (el.closest('.visually-hidden, .print-sheet')) continue;
      if (box.width < 44 || box.height < 44)
        small.push(
          `${el.tagName.toLowerCase()} "${(el.textContent || el.id).trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
    }
    return small;
  });
}

async function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function checkAt(page: Page, name: string): Promise<void> {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    const size = `${width}x${height}`;
    // A chart re-measures itself after the window changes size (ResizeObserver): the layout settles first.
    await expect.poll(() => sideways(page), { message: `${name} at ${size} scrolls sideways` }).toBeLessThanOrEqual(0);
    expect(await smallTargets(page), `${name} at ${size}`).toEqual([]);
    if (SCREENSHOT_SIZES.has(size)) await screenshot(page, `${name}-${size}`);
  }
  await page.setViewportSize({ width: 1024, height: 600 });
}

describe('screens from 800×600 up', () => {
  it('Charge, Waiting and Result fit without sideways scrolling and with finger-sized targets', async () => {
    const { page } = till.get();
    await focused(page, 'amount');
    await checkAt(page, 'charge');
    clock.hold();
    await sellToWaiting(page, '7', '0241234506');
    await checkAt(page, 'waiting');
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
    await checkAt(page, 'result');
    await enter(page);
    await focused(page, 'amount');
  });

  it('grows on larger screens: a larger keypad and type', async () => {
    const { page } = till.get();
    const measure = () =>
      page.evaluate(() => ({
        key: document.querySelector('.keypad-key')!.getBoundingClientRect().height,
        amount: parseFloat(getComputedStyle(document.getElementById('amount')!).fontSize),
      }));
    await page.setViewportSize({ width: 1024, height: 600 });
    const small = await measure();
    await page.setViewportSize({ width: 1366, height: 768 });
    const medium = await measure();
    await page.setViewportSize({ width: 1920, height: 1080 });
    const large = await measure();
    expect(medium.key).toBeGreaterThan(small.key);
    expect(large.key).toBeGreaterThan(medium.key);
    expect(medium.amount).toBeGreaterThan(small.amount);
    expect(large.amount).toBeGreaterThan(medium.amount);
    await page.setViewportSize({ width: 1024, height: 600 });
  });

  it('a late-result notice appears over the screen, never moving the form; its buttons are finger-sized', async () => {
    const { page } = till.get();
    await page.setViewportSize({ width: 800, height: 600 });
    clock.hold();
    await sellToWaiting(page, '8', '0241233306');
    await page.keyboard.press('Escape');
    await focused(page, 'amount');
    const before = await page.locator('#amount').boundingBox();
    clock.release();
    await page.getByTestId('late-notice').waitFor({ timeout: 15_000 });
    expect(await page.locator('#amount').boundingBox()).toEqual(before);
    expect(await smallTargets(page)).toEqual([]);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'late-notice-800x600');
    // The next sale waits under the notice: at 1366×768 the notice covered the headline, and at 800×600 it cut
    // its own text short ("started by A…") with Dismiss at the window's edge.
    clock.hold();
    await sellToWaiting(page, '9', '0241233406');
    for (const [width, height] of [
      [1366, 768],
      [800, 600],
    ] as const) {
      await page.setViewportSize({ width, height });
      const at = `${width}x${height}`;
      const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
      const [title, notice, dismiss] = [
        await box('#waiting-title'),
        await box('[data-testid="late-notice"]'),
        await box('[data-testid="late-notice"] button:last-child'),
      ];
      const apart = (a: typeof title, b: typeof title) =>
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart(title, notice), `the notice covers the headline at ${at}`).toBe(true);
      for (const [name, b] of [
        ['notice', notice],
        ['Dismiss', dismiss],
      ] as const) {
        expect(b.x >= 0 && b.y >= 0 && b.x + b.width <= width && b.y + b.height <= height, `${name} inside the window at ${at}`).toBe(true);
      }
      expect(dismiss.x + dismiss.width <= notice.x + notice.width, `Dismiss whole inside the notice at ${at}`).toBe(true);
      const cut = await page.locator('.notice-text').evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
      expect(cut, `the notice's text cut short at ${at}`).toBe(false);
    }
    await screenshot(page, 'late-notice-waiting-800x600');
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
    await enter(page);
    await focused(page, 'amount');
    await page.getByRole('button', { name: /^Dismiss/ }).click();
    await page.setViewportSize({ width: 1024, height: 600 });
  });

  it('History, Takings and Settings fit too', async () => {
    const { page } = till.get();
    await goTo(page, 'History');
    await focused(page, 'history-search');
    await checkAt(page, 'history');
    await goTo(page, 'Takings');
    await chooseOwnerPin(page, '2468', 'Takings');
    // Dates as the till's locale writes them (en-GH, day first), and figures right-aligned under their headers.
    expect(await page.getByRole('heading', { name: /^Today \(/ }).textContent()).toMatch(/^Today \(\d{2}\/\d{2}\/\d{4}\)$/);
    await expect
      .poll(() => page.getByRole('heading', { name: / to / }).first().textContent())
      .toMatch(/^\d{2}\/\d{2}\/\d{4} to \d{2}\/\d{2}\/\d{4}$/);
    const aligned = await page.evaluate(() =>
      [...document.querySelectorAll('table.breakdown thead th')].map((th) => `${th.textContent}:${getComputedStyle(th).textAlign}`),
    );
    expect(aligned).toEqual([
      'Network:left',
      'Payments:right',
      'Paid:right',
      'Gross:right',
      'Fees:right',
      'Net:right',
      'Till:left',
      'Payments:right',
      'Paid:right',
      'Gross:right',
      'Fees:right',
      'Net:right',
    ]);
    await checkAt(page, 'takings');
    await goTo(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await checkAt(page, 'settings');
  });
});
