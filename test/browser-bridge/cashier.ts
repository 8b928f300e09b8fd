/** What a cashier does at the keyboard, and the checks every screen gets (axe, screenshots). */
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Dialog, Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOTS_DIR } from '../support/screenshots.js';

/** Type an amount on a fresh Charge screen, Enter, the number, Enter: the common sale. */
export async function sell(page: Page, amountDigits: string, phone: string, description?: string): Promise<void> {
  await page.locator('#amount').waitFor();
  await focused(page, 'amount');
  await page.keyboard.type(amountDigits);
  await page.keyboard.press('Enter');
  await focused(page, 'phone');
  await page.keyboard.type(phone);
  if (description !== undefined) {
    await page.keyboard.press('Tab'); // network
    await page.keyboard.press('Tab'); // description
    await focused(page, 'description');
    await page.keyboard.type(description);
  }
  await page.keyboard.press('Enter');
}

/** `sell`, the result screen says `title`, then Enter: a new sale. */
export async function sale(page: Page, amountDigits: string, phone: string, title: 'PAID' | 'NOT PAID'): Promise<void> {
  await sell(page, amountDigits, phone);
  expect(await resultTitle(page)).toBe(title);
  await enter(page); // New sale
}

/** The first visit to an owner screen: choose the owner PIN (typed twice), then that screen opens under `heading`. */
export async function chooseOwnerPin(page: Page, pin: string, heading: string): Promise<void> {
  await focused(page, 'first-new');
  await page.keyboard.type(pin);
  await page.keyboard.press('Tab');
  await page.keyboard.type(pin);
  await enter(page);
  await page.getByRole('heading', { name: heading }).waitFor();
}

export const WAITING_HEADING = 'Ask the customer to approve on their phone';

/** `sell`, then the Waiting screen (the test holds the customer's answer back for as long as it needs it). */
export async function sellToWaiting(page: Page, amountDigits: string, phone: string): Promise<void> {
  await sell(page, amountDigits, phone);
  await page.getByRole('heading', { name: WAITING_HEADING }).waitFor();
}

/** On the Waiting screen: Stop waiting at the keyboard, back to a new sale with the payment still open. */
export async function stopWaiting(page: Page): Promise<void> {
  await tabTo(page, /Stop waiting/);
  await enter(page);
  // Before the service has answered, the till asks whether to keep sending it: keep (the payment stays open).
  const question = page.getByTestId('stop-question');
  if (await question.isVisible()) await question.getByRole('button', { name: /Keep trying/ }).click();
  await focused(page, 'amount');
}

/** Fails unless the element with this id has the keyboard focus (keyboard-only flows depend on it). */
export async function focused(page: Page, id: string): Promise<void> {
  try {
    await page.waitForFunction((want) => document.activeElement?.id === want, id, { timeout: 10_000 });
  } catch {
    throw new Error(`Expected the focus on #${id}, found it on ${await describeFocus(page)}`);
  }
}

/** Fails unless the focused element's text matches (buttons have no id). */
export async function focusedText(page: Page, pattern: RegExp): Promise<void> {
  try {
    await page.waitForFunction((source) => new RegExp(source).test(document.activeElement?.textContent ?? ''), pattern.source, {
      timeout: 10_000,
    });
  } catch {
    throw new Error(`Expected the focus on an element matching ${pattern}, found it on ${await describeFocus(page)}`);
  }
}

async function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return 'nothing';
    return `<${el.tagName.toLowerCase()}${el.id ? ` id="${el.id}"` : ''}> "${(el.textContent ?? '').slice(0, 60)}" on a page showing "${document.querySelector('h1')?.textContent ?? ''}"`;
  });
}

export async function resultTitle(page: Page, timeout = 30_000): Promise<string> {
  const title = page.getByTestId('result-title');
  await title.waitFor({ timeout });
  return (await title.textContent()) ?? '';
}

/** Press Enter on whatever is focused (the result screen focuses "New sale" / "Try again"). */
export async function enter(page: Page): Promise<void> {
  await page.keyboard.press('Enter');
}

/** Tab until the focused element's accessible text matches, then return (keyboard-only navigation). */
export async function tabTo(page: Page, text: RegExp, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const id = el.id;
      const forLabel = id ? document.querySelector(`label[for="${id}"]`)?.textContent : '';
      return `${el.textContent ?? ''} ${forLabel ?? ''} ${el.getAttribute('aria-label') ?? ''}`.trim();
    });
    if (text.test(label)) return;
  }
  throw new Error(`Tab never reached an element matching ${text}`);
}

/** Go to a section with the keyboard: Tab through the top navigation and press Enter. */
export async function goTo(page: Page, section: 'Charge' | 'History' | 'Takings' | 'Settings'): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, new RegExp(`^${section}`));
  await page.keyboard.press('Enter');
}

export async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Saves name.png in the ignored screenshots folder (test/support/screenshots.ts); npm run screenshots publishes it. */
export async function screenshot(page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), ...(clip ? { clip } : {}) });
}

export async function text(page: Page, testId: string): Promise<string> {
  return ((await page.getByTestId(testId).first().textContent()) ?? '').trim();
}

/** Saves the receipt as printed (print media: only the print sheet shows), name.png beside the other screenshots. */
export async function receiptScreenshot(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ media: 'print' });
  await page.getByTestId('print-sheet').screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`) });
  await page.emulateMedia({ media: 'screen' });
}

/** Focus a box, select what it holds and type over it (as an owner correcting a value). */
export async function retype(page: Page, id: string, typed: string): Promise<void> {
  await page.locator(`#${id}`).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(typed);
}

/**
 * Presses the window's close button (Chromium standing in for the shell: its 'beforeunload' dialog is the
 * shell's question); returns that question, or null when the page simply closed.
 */
export async function closeWindow(page: Page): Promise<Dialog | null> {
  // Waiting for a dialog fails when the page closes instead (or nothing comes): no question was asked.
  const asked = page.waitForEvent('dialog', { timeout: 10_000 }).catch(() => null);
  await page.close({ runBeforeUnload: true });
  return asked;
}
