/**
 * Amounts as Ghanaian prices are written (cedis first, a decimal point), questions before an
 * unusual prompt goes out (amount outside the usual range, a number without a wallet, a second prompt
 * to the same number for the same amount), and the wallet name on the waiting screen. Keyboard only,
 * checked against the sandbox's own records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_NAMES } from '../../sandbox/names.js';
import { axe, chooseOwnerPin, enter, focused, goTo, resultTitle, screenshot, sell, tabTo, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions, type SandboxTransaction } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

const clock = new HeldClock();
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock }));
afterEach(() => clock.release());

const WAITING = 'Ask the customer to approve on their phone';

async function transactionsFor(msisdn: string): Promise<SandboxTransaction[]> {
  return (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.msisdn === msisdn);
}

/** Empties the form with the keyboard, as a cashier would before the next customer. */
async function clearForm(): Promise<void> {
  const { page } = till.get();
  for (const id of ['description', 'phone', 'amount']) {
    await page.locator(`#${id}`).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  }
}

describe('amount entry, cedis first', () => {
  it('5 is GH₵5.00 and 12.5 is GH₵12.50; a third decimal digit is refused next to the field', async () => {
    const { page } = till.get();
    await focused(page, 'amount');
    await page.keyboard.type('5');
    expect(await text(page, 'amount-value')).toBe('GH₵5.00');
    await enter(page);
    await page.keyboard.type('0241234567');
    await enter(page);
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'result-amount')).toBe('GH₵5.00');
    expect(await transactionsFor('233241234567')).toMatchObject([{ status: 'SUCCESS', amount: '5.00' }]);
    await enter(page);

    await focused(page, 'amount');
    await page.keyboard.type('12.505');
    expect(await page.inputValue('#amount')).toBe('GH₵12.50');
    expect(await text(page, 'amount-error')).toMatch(/Two digits at most after the point/);
    expect(await page.getAttribute('#amount', 'aria-invalid')).toBe('true');
    await page.keyboard.press('Backspace');
    expect(await page.getByTestId('amount-error').count()).toBe(0);
    expect(await text(page, 'amount-value')).toBe('GH₵12.50');
    await enter(page);
    await page.keyboard.type('0201234567');
    await enter(page);
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'result-amount')).toBe('GH₵12.50');
    expect(await transactionsFor('233201234567')).toMatchObject([{ status: 'SUCCESS', amount: '12.50' }]);
    await enter(page);
  });

  it('below the minimum or above the threshold asks first, the amount large; Enter means go back', async () => {
    const { page } = till.get();
    await sell(page, '0.5', '0241234568');
    const dialog = page.getByTestId('confirm-charge');
    await dialog.waitFor();
    expect(await text(page, 'confirm-amount')).toBe('GH₵0.50');
    expect(await text(page, 'confirm-charge')).toMatch(/less than GH₵1.00/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-confirm-amount');
    await enter(page); // by reflex: No, go back
    await dialog.waitFor({ state: 'detached' });
    await focused(page, 'amount');
    await page.keyboard.type('2500'); // the selected amount is replaced
    await enter(page);
    await enter(page);
    await dialog.waitFor();
    expect(await text(page, 'confirm-amount')).toBe('GH₵2,500.00');
    expect(await text(page, 'confirm-charge')).toMatch(/more than GH₵1,000.00/);
    expect(await transactionsFor('233241234568')).toHaveLength(0);
    await page.keyboard.press('Tab');
    await enter(page); // Yes, charge this amount
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233241234568')).toMatchObject([{ status: 'SUCCESS', amount: '2500.00' }]);
    await enter(page);
  });

  it('pesewas first is a Settings option for shops used to it', async () => {
    const { page, invoke } = till.get();
    await goTo(page, 'Settings');
    await chooseOwnerPin(page, '2468', 'Amounts at the counter'); // the first visit chooses the owner PIN
    await tabTo(page, /Cedis first/); // the chosen one of the group
    await page.keyboard.press('ArrowDown'); // arrows choose within a radio group
    await focused(page, 'entry-pesewas');
    await tabTo(page, /^Save counter settings/);
    await enter(page);
    expect(await text(page, 'counter-form-message')).toBe('Counter settings saved.');
    expect(await axe(page)).toEqual([]);
    await goTo(page, 'Charge');
    await focused(page, 'amount');
    await page.keyboard.type('1250');
    expect(await page.inputValue('#amount')).toBe('GH₵12.50');
    await page.keyboard.type('.');
    expect(await text(page, 'amount-error')).toMatch(/Pesewas first/);
    expect(await page.inputValue('#amount')).toBe('GH₵12.50');
    await page.keyboard.press('Escape');
    await invoke('owner:unlock', { pin: '2468' });
    await invoke('settings:saveCounter', { amountEntry: 'cedis', minimum: '1.00', confirmAbove: '1000.00' });
    await invoke('owner:lock', {});
    await till.get().reload();
  });
});

describe('no second prompt by mistake', () => {
  it('the same number and amount while one awaits, or was PAID minutes ago, asks first naming that payment', async () => {
    const { page } = till.get();
    clock.hold();
    await sell(page, '12', '0241235506'); // a slow approval, held: it stays awaiting
    await page.getByRole('heading', { name: WAITING }).waitFor();
    await page.keyboard.press('Escape'); // stop waiting: the payment is still open
    await focused(page, 'amount');
    await sell(page, '12', '0241235506');
    const dialog = page.getByTestId('confirm-charge');
    await dialog.waitFor();
    expect(await text(page, 'confirm-charge')).toMatch(/already has a payment of GH₵12.00 from .*Pending/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-confirm-duplicate');
    await enter(page); // No, go back
    await dialog.waitFor({ state: 'detached' });
    expect(await transactionsFor('233241235506')).toHaveLength(1);

    clock.release();
    await page.getByTestId('late-notice').waitFor({ timeout: 15_000 });
    await page.locator('#amount').focus();
    await enter(page);
    await enter(page);
    await dialog.waitFor();
    expect(await text(page, 'confirm-charge')).toMatch(/already has a payment of GH₵12.00 from .*Paid/);
    await enter(page);
    await dialog.waitFor({ state: 'detached' });
    expect(await transactionsFor('233241235506')).toHaveLength(1);

    // Another amount to the same number is a new sale: no question.
    await page.keyboard.type('13');
    await enter(page);
    await enter(page);
    await page.getByRole('heading', { name: WAITING }).waitFor();
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233241235506')).toHaveLength(2);
    await enter(page);
  });
});

describe('the wallet name', () => {
  it('a number with no account needs an explicit "charge anyway"', async () => {
    const { page } = till.get();
    await clearForm();
    await page.locator('#amount').focus();
    await page.keyboard.type('3');
    await enter(page);
    await page.keyboard.type('0241234599');
    await expect.poll(() => text(page, 'account-name')).toMatch(/No mobile-money account was found/);
    await enter(page);
    const dialog = page.getByTestId('confirm-charge');
    await dialog.waitFor();
    expect(await text(page, 'confirm-charge')).toMatch(/No mobile-money account/);
    await enter(page); // No, go back: to the number
    await focused(page, 'phone');
    expect(await transactionsFor('233241234599')).toHaveLength(0);
    await enter(page);
    await dialog.waitFor();
    await tabTo(page, /^Charge anyway/);
    await enter(page);
    await resultTitle(page);
    expect(await transactionsFor('233241234599')).toHaveLength(1);
    await enter(page);
  });

  it('the waiting screen shows it, even when the lookup answers after Enter', async () => {
    const { page, hold } = till.get();
    clock.hold();
    const release = hold('payments:resolveAccount');
    await sell(page, '9', '0241236606');
    await page.getByRole('heading', { name: WAITING }).waitFor(); // the sale did not wait for the name
    expect(await text(page, 'waiting-name')).toBe('');
    release();
    await expect.poll(() => text(page, 'waiting-name')).toMatch(/^Wallet name: /);
    expect(ACCOUNT_NAMES).toContain((await text(page, 'waiting-name')).replace(/^Wallet name: /, ''));
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'waiting-name');
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
  });
});
