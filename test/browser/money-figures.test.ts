/**
 * No money figure is clipped or cut short at any supported size. At 800×600 the cards
 * of Takings, the X report and the Z report showed "GH₵1,557.5" for GH₵1,557.50. With six-figure takings
 * (two sales, GH₵12,345.67 and GH₵98,765.43), every element showing a money figure must hold it whole:
 * scrollWidth ≤ clientWidth, at 800×600 and 1366×768.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../browser-bridge/cashier.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const PIN = '2468';
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE }));
const SIZES = [
  [800, 600],
  [1366, 768],
] as const;

/** A PAID sale through the core (the counter's own screens are tested elsewhere): waits for its result. */
async function paid(amount: string, msisdn: string): Promise<void> {
  const t = till.get();
  const answer = (await t.invoke('payments:charge', { requestId: `money-${msisdn}`, amount, msisdn, network: 'MTN' })) as {
    ok: boolean;
    payment: { id: string };
  };
  expect(answer.ok).toBe(true);
  await expect
    .poll(async () => ((await t.invoke('payments:get', { id: answer.payment.id })) as { state: string }).state, { timeout: 30_000 })
    .toBe('success');
}

/** Every visible element that shows a money figure and is wider inside than it is: what it shows, and the two widths. */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.screens *')]
      .filter((el) => el.children.length === 0 || [...el.children].every((c) => c.tagName === 'WBR'))
      .filter((el) => /GH₵/.test(el.textContent ?? '') && el.offsetParent !== null)
      .flatMap((el) => {
        // The element, and each ancestor up to its card or cell, must hold the figure.
        const boxes = [el, el.closest<HTMLElement>('.card, td, th')].filter((b): b is HTMLElement => b !== null);
        return boxes
          .filter((b) => b.scrollWidth > b.clientWidth)
          .map((b) => `${el.textContent ?? ''}: ${b.scrollWidth} > ${b.clientWidth} (${b.className || b.tagName})`);
      }),
  );
}

async function figuresWhole(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await ready();
    expect(await clipped(page), `${name} at ${width}×${height}`).toEqual([]);
    await screenshot(page, `money-figures-${name}-${width}x${height}`);
  }
  await page.setViewportSize({ width: 1024, height: 600 });
}

async function ownerScreen(page: Page, tab: 'Takings' | 'Day close', heading: string): Promise<void> {
  await page.getByRole('button', { name: tab, exact: true }).click();
  const pinEntry = page.getByRole('heading', { name: 'Owner PIN' });
  const screen = page.getByRole('heading', { name: heading, level: 1 });
  await pinEntry.or(screen).first().waitFor();
  if (await pinEntry.isVisible()) {
    await page.locator('#owner-pin').fill(PIN);
    await page.keyboard.press('Enter');
  }
  await screen.waitFor();
}

describe('money figures are never cut short', () => {
  it('six-figure takings: the Takings cards and breakdowns hold every figure whole', async () => {
    const { page } = till.get();
    await till.get().invoke('owner:setPin', { pin: PIN });
    await paid('12345.67', '0241234567');
    await paid('98765.43', '0241234568');
    await ownerScreen(page, 'Takings', 'Takings');
    await figuresWhole(page, 'takings', async () => {
      await expect.poll(() => page.getByTestId('today-gross').textContent()).toMatch(/^GH₵111,111\.10$/);
    });
  });

  it('the X report and the Z report hold every figure whole', async () => {
    const { page } = till.get();
    await ownerScreen(page, 'Day close', 'Day close');
    await page.getByTestId('day-x').click();
    await page.getByRole('heading', { name: /X report/ }).waitFor();
    await figuresWhole(page, 'x-report', async () => {
      await expect.poll(() => page.getByTestId('day-gross').textContent()).toMatch(/^GH₵111,111\.10$/);
    });
    await page.getByTestId('day-close').click();
    await page.getByTestId('day-confirm-close').click();
    await page.getByRole('heading', { name: /Z report Z-0001/ }).waitFor();
    await figuresWhole(page, 'z-report', async () => {
      await expect.poll(() => page.getByTestId('day-gross').textContent()).toMatch(/^GH₵111,111\.10$/);
    });
  });
});
