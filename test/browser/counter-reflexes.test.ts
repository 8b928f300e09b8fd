/**
 * A tired cashier pressing Enter by reflex: after a result the default is a new, empty sale;
 * digits typed on a result start it; "try again" is deliberate; Escape stops waiting. Keyboard only,
 * through the built renderer, the real core and its embedded sandbox; every charge is checked against
 * the sandbox's own records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { axe, enter, focused, focusedText, resultTitle, sell, sellToWaiting, tabTo, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions, type SandboxTransaction } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock }));
afterEach(() => clock.release());

async function transactionsFor(msisdn: string): Promise<SandboxTransaction[]> {
  return (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.msisdn === msisdn);
}

/** The shop's amount entry, set as the owner would (PIN, save, lock), then the page reloaded. */
async function amountEntry(mode: 'cedis' | 'pesewas'): Promise<void> {
  const t = till.get();
  const status = (await t.invoke('app:status', {})) as { pinSet: boolean };
  if (status.pinSet) await t.invoke('owner:unlock', { pin: '2468' });
  else await t.invoke('owner:setPin', { pin: '2468' });
  await t.invoke('settings:saveCounter', { amountEntry: mode, minimum: '1.00', confirmAbove: '1000.00' });
  await t.invoke('owner:lock', {});
  await t.reload();
  await focused(t.page, 'amount');
}

describe('after a result, the default is a new, empty sale', () => {
  it('decline, Enter, 3000, Enter: a new GH₵30.00 sale to the next number, no second prompt to the declined one', async () => {
    const { page } = till.get();
    await amountEntry('pesewas'); // the cashier of the report typed pesewas first
    await sell(page, '800', '0241234501'); // declines
    expect(await resultTitle(page)).toBe('NOT PAID');
    await focusedText(page, /^New sale$/);
    await enter(page);
    await focused(page, 'amount');
    expect(await page.inputValue('#amount')).toBe('');
    expect(await page.inputValue('#phone')).toBe('');
    await page.keyboard.type('3000');
    await enter(page);
    await focused(page, 'phone');
    await page.keyboard.type('0241234567');
    await enter(page);
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'result-amount')).toBe('GH₵30.00');
    expect(await transactionsFor('233241234567')).toMatchObject([{ status: 'SUCCESS', amount: '30.00' }]);
    expect(await transactionsFor('233241234501')).toMatchObject([{ status: 'FAILED', amount: '8.00' }]);
    await enter(page);
    await focused(page, 'amount');
  });

  it('a digit typed on a result screen starts a new sale with it; the keys after it are not lost', async () => {
    const { page } = till.get();
    await amountEntry('cedis');
    await sell(page, '7', '0201234568');
    expect(await resultTitle(page)).toBe('PAID');
    await page.keyboard.type('25'); // straight from the result, as fast as the keyboard goes
    await focused(page, 'amount');
    expect(await page.inputValue('#amount')).toBe('GH₵25');
    expect(await page.inputValue('#phone')).toBe('');
    await enter(page);
    await page.keyboard.type('0201234569');
    await enter(page);
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233201234569')).toMatchObject([{ status: 'SUCCESS', amount: '25.00' }]);
    // The same from NOT PAID.
    await enter(page);
    await sell(page, '4', '0271234501');
    expect(await resultTitle(page)).toBe('NOT PAID');
    await page.keyboard.type('9');
    await focused(page, 'amount');
    expect(await page.inputValue('#amount')).toBe('GH₵9');
    expect(await page.inputValue('#phone')).toBe('');
    await page.keyboard.press('Escape');
  });

  it('"Try again" is a second, deliberate action: the details come back with the amount focused and selected', async () => {
    const { page } = till.get();
    await focused(page, 'amount');
    await sell(page, '6', '0241234501', 'Rice');
    expect(await resultTitle(page)).toBe('NOT PAID');
    expect(await axe(page)).toEqual([]);
    await tabTo(page, /^Try again/);
    await enter(page);
    await focused(page, 'amount');
    expect(await page.inputValue('#phone')).toBe('024 123 4501');
    expect(await page.inputValue('#description')).toBe('Rice');
    const selection = await page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement;
      return { start: el.selectionStart, end: el.selectionEnd, length: el.value.length };
    });
    expect(selection).toEqual({ start: 0, end: selection.length, length: selection.length });
    expect(selection.length).toBeGreaterThan(0);
    await page.keyboard.type('5'); // replaces the selected amount
    expect(await page.inputValue('#amount')).toBe('GH₵5');
    await page.keyboard.press('Escape');
    expect(await transactionsFor('233241234501')).toHaveLength(2); // the two declines of this file, nothing more
  });
});

describe('waiting', () => {
  it('Escape stops waiting, like the button: the payment stays open and its result comes as a notice', async () => {
    const { page } = till.get();
    for (const id of ['description', 'phone']) {
      await page.locator(`#${id}`).focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
    }
    await page.locator('#amount').focus();
    await page.keyboard.press('Escape');
    clock.hold();
    await sellToWaiting(page, '11', '0241237706');
    await page.keyboard.press('Escape');
    await focused(page, 'amount');
    expect(await page.inputValue('#amount')).toBe('');
    clock.release();
    const notice = page.getByTestId('late-notice');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toMatch(/PAID: GH₵11.00 from 024 123 7706/);
    expect(await transactionsFor('233241237706')).toMatchObject([{ status: 'SUCCESS', amount: '11.00' }]);
    await tabTo(page, /^Dismiss/);
    await enter(page);
  });
});

describe('while a charge is being sent', () => {
  it('nothing on the form changes: the number, description and network are read-only and the keypad types nowhere', async () => {
    const t = till.get();
    const { page } = t;
    const release = t.hold('payments:charge');
    try {
      await page.locator('#amount').focus();
      await sell(page, '9', '0241237708');
      await page.getByRole('button', { name: 'Sending…' }).waitFor();
      await page.locator('#phone').focus();
      await page.keyboard.press('Backspace');
      await page.getByRole('button', { name: 'Delete last digit' }).click();
      await page.locator('#description').focus();
      await page.keyboard.type('12');
      expect(await page.inputValue('#phone')).toBe('024 123 7708');
      expect(await page.inputValue('#description')).toBe('');
      expect(await page.inputValue('#amount')).toBe('GH₵9');
      expect(await page.locator('#network').isDisabled()).toBe(true);
    } finally {
      release();
    }
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233241237708')).toMatchObject([{ status: 'SUCCESS', amount: '9.00' }]);
    await enter(page);
  });
});
