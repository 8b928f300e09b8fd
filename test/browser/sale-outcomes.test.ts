/**
 * A cashier at the keyboard takes a sale for every sandbox outcome, through the built renderer in
 * Chromium, the test bridge and the real till core with its embedded sandbox and relay (time-scaled).
 * Every result is checked against the sandbox's own record of the transaction.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_NAMES } from '../../sandbox/names.js';
import {
  axe,
  enter,
  focused,
  focusedText,
  resultTitle,
  screenshot,
  sell,
  sellToWaiting,
  stopWaiting,
  tabTo,
  text,
  WAITING_HEADING,
} from '../browser-bridge/cashier.js';
import { sandboxTransactions, type SandboxTransaction } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';
import { HeldClock } from '../support/held-clock.js';

// Held while a test needs a payment to stay pending (a slow approval, 3 s here, must not race a slow machine).
const clock = new HeldClock();
const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE, embeddedClock: clock }));
afterEach(() => clock.release());

const HELP = /the service does not say which/;

async function transactionsFor(msisdn: string): Promise<SandboxTransaction[]> {
  return (await sandboxTransactions(till.get().sandboxUrl())).filter((t) => t.msisdn === msisdn);
}

/** From a NOT PAID result (focus on "New sale"), press Enter. */
async function newSaleAfterFailure(): Promise<void> {
  const { page } = till.get();
  await enter(page);
  await focused(page, 'amount');
}

describe('a sale at the keyboard, for every sandbox outcome', () => {
  it('success: GH₵ formatting as typed, network detected, wallet name shown, PAID with fee, net and reference', async () => {
    const { page, problems } = till.get();
    await focused(page, 'amount');
    expect(await text(page, 'env-badge')).toBe('TEST');
    expect(await text(page, 'sandbox-banner')).toMatch(/no real money/);
    await expect.poll(() => text(page, 'relay-state')).toMatch(/connected/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-empty');

    await page.keyboard.type('1250');
    expect(await page.inputValue('#amount')).toBe('GH₵1,250');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('.5');
    expect(await page.inputValue('#amount')).toBe('GH₵12.5');
    expect(await text(page, 'amount-value')).toBe('GH₵12.50');
    await enter(page);
    await focused(page, 'phone');
    await page.keyboard.type('0201234567');
    expect(await page.inputValue('#phone')).toBe('020 123 4567');
    expect(await page.inputValue('#network')).toBe('TELECEL');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('0241234567');
    expect(await page.inputValue('#phone')).toBe('024 123 4567');
    expect(await page.inputValue('#network')).toBe('MTN');
    await expect.poll(() => text(page, 'account-name')).toMatch(/Wallet name: .+ check it with the customer/);
    const name = (await text(page, 'account-name')).replace(/^Wallet name: (.+?) — .*$/, '$1');
    expect(ACCOUNT_NAMES).toContain(name);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-filled');

    await enter(page);
    expect(await resultTitle(page)).toBe('PAID');
    expect(await text(page, 'result-amount')).toBe('GH₵12.50');
    const [tx] = await transactionsFor('233241234567');
    expect(tx).toMatchObject({ status: 'SUCCESS', amount: '12.50', network: 'MTN' });
    expect(await text(page, 'result-fee')).toBe(`GH₵${tx?.fee}`);
    expect(await text(page, 'result-net')).toBe('GH₵12.26');
    expect(await text(page, 'result-reference')).toBe(tx?.reference);
    await expect.poll(() => text(page, 'live-assertive')).toMatch(/^Paid: GH₵12.50/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'result-success');

    // No printer chosen: the print button opens the browser's print view, where only the 80 mm receipt shows.
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.keyboard.press('Tab');
    await enter(page);
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    // After a print the focus is back on "New sale": the next Enter starts a sale, never a second print.
    await focusedText(page, /^New sale$/);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('receipt').isVisible()).toBe(true);
    expect(await text(page, 'receipt')).toContain(tx?.reference ?? 'missing');
    expect(await page.getByTestId('result-title').isVisible()).toBe(false);
    await screenshot(page, 'receipt-print', { x: 0, y: 0, width: 320, height: 420 });
    await page.emulateMedia({ media: 'screen' });

    // Print media hides the screen, which drops the focus: put it back where the print left it (checked above).
    await page.getByRole('button', { name: 'New sale' }).focus();
    await enter(page); // New sale
    await focused(page, 'amount');
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    expect(await page.inputValue('#amount')).toBe('');
    expect(problems).toEqual([]);
  });

  it('slow approval: the waiting screen shows amount, number, elapsed time and the relay, then PAID', async () => {
    const { page } = till.get();
    clock.hold(); // the customer answers when the screen has been checked
    await sellToWaiting(page, '7', '0541234506');
    expect(await text(page, 'waiting-amount')).toBe('GH₵7.00');
    expect(await page.textContent('.waiting-number')).toContain('054 123 4506');
    expect(await text(page, 'waiting-relay')).toMatch(/connected/);
    await expect.poll(() => text(page, 'waiting-elapsed'), { timeout: 5000 }).toMatch(/^0:0[1-9]$/);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'waiting');
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233541234506')).toMatchObject([{ status: 'SUCCESS', amount: '7.00' }]);
    await enter(page);
    await focused(page, 'amount');
  });

  it('declined: NOT PAID with what it can mean, and "try again" keeps the details for a second payment', async () => {
    const { page } = till.get();
    await sell(page, '3', '0241234501', 'Bread');
    expect(await resultTitle(page)).toBe('NOT PAID');
    expect(await text(page, 'result-help')).toMatch(HELP);
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'result-failed');
    await tabTo(page, /^Try again/); // a deliberate second action, never the default
    await enter(page);
    expect(await page.inputValue('#amount')).toBe('GH₵3');
    expect(await page.inputValue('#phone')).toBe('024 123 4501');
    expect(await page.inputValue('#description')).toBe('Bread');
    await focused(page, 'amount');
    await enter(page);
    await focused(page, 'phone');
    await enter(page);
    expect(await resultTitle(page)).toBe('NOT PAID');
    const txs = await transactionsFor('233241234501');
    expect(txs).toHaveLength(2);
    expect(new Set(txs.map((t) => t.clientReference)).size).toBe(2);
    expect(txs.every((t) => t.status === 'FAILED' && (t as unknown as { failureReason: string }).failureReason === 'DECLINED')).toBe(true);
    await newSaleAfterFailure();
  });

  for (const [suffix, reason] of [
    ['02', 'TIMEOUT'],
    ['03', 'INSUFFICIENT_FUNDS'],
    ['04', 'NETWORK_REJECTED'],
  ] as const) {
    it(`${reason.toLowerCase().replace('_', ' ')}: NOT PAID, the cashier is told the money did not move`, async () => {
      const { page } = till.get();
      await sell(page, '4.5', `02712345${suffix}`);
      expect(await resultTitle(page, 20_000)).toBe('NOT PAID');
      expect(await text(page, 'result-help')).toMatch(/did not move/);
      expect(await text(page, 'result-help')).toMatch(HELP);
      await expect.poll(() => text(page, 'live-assertive')).toMatch(/^Not paid: GH₵4.50/);
      const [tx] = await transactionsFor(`2332712345${suffix}`);
      expect(tx).toMatchObject({ status: 'FAILED', failureReason: reason, network: 'AIRTELTIGO' });
      await newSaleAfterFailure();
    });
  }

  it('duplicate network results: one PAID payment, one row in history', async () => {
    const { page } = till.get();
    await sell(page, '9.99', '0551234505');
    expect(await resultTitle(page)).toBe('PAID');
    expect(await transactionsFor('233551234505')).toHaveLength(1);
    const history = (await till.get().invoke('history:search', { query: '234505' })) as { total: number; items: { state: string }[] };
    expect(history.total).toBe(1);
    expect(history.items[0]?.state).toBe('success');
    await enter(page);
  });

  it('a double Enter on Charge starts one payment only', async () => {
    const { page } = till.get();
    await focused(page, 'amount');
    await page.keyboard.type('1.5');
    await enter(page);
    await page.keyboard.type('0591234506'); // a slow approval, held back: the waiting screen stays up
    clock.hold();
    await Promise.all([page.keyboard.press('Enter'), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: WAITING_HEADING }).waitFor();
    await page.keyboard.press('Enter'); // one Enter too many lands on the waiting screen: it must not stop waiting
    await page.waitForTimeout(200); // what that Enter could have done, done
    expect(await page.getByRole('heading', { name: WAITING_HEADING }).isVisible()).toBe(true);
    clock.release();
    expect(await resultTitle(page)).toBe('PAID');
    expect(await page.getByTestId('late-notice').count()).toBe(0);
    expect(await transactionsFor('233591234506')).toHaveLength(1);
    await enter(page);
    await focused(page, 'amount');
  });

  it('stop waiting: the payment stays open and its late success arrives as a notice', async () => {
    const { page } = till.get();
    clock.hold();
    await sellToWaiting(page, '20', '0241239906');
    await stopWaiting(page);
    expect(await page.inputValue('#amount')).toBe('');
    expect(await page.getByTestId('late-notice').count()).toBe(0);
    clock.release(); // the customer approves after the cashier stopped waiting
    const notice = page.getByTestId('late-notice');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toMatch(/PAID: GH₵20.00 from 024 123 9906 \(you stopped waiting\)/);
    await expect.poll(() => text(page, 'live-assertive')).toMatch(/Late result: GH₵20.00 .* is PAID/);
    expect(await transactionsFor('233241239906')).toMatchObject([{ status: 'SUCCESS', amount: '20.00' }]);
    await screenshot(page, 'late-notice');
    expect(await axe(page)).toEqual([]);
  });

  it('an invalid amount and an invalid number get messages next to them; nothing typed is lost', async () => {
    const { page } = till.get();
    await page.locator('#amount').focus();
    await enter(page);
    expect(await text(page, 'amount-error')).toBe('Type the amount to charge (more than GH₵0.00).');
    await focused(page, 'amount');
    await page.keyboard.type('25');
    expect(await page.getByTestId('amount-error').count()).toBe(0);
    await enter(page);
    await page.keyboard.type('0302123456'); // an Accra landline
    await enter(page);
    expect(await text(page, 'phone-error')).toMatch(/not a mobile number|not a valid Ghana number|not on MTN/);
    await focused(page, 'phone');
    expect(await page.inputValue('#amount')).toBe('GH₵25');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('024123456');
    await enter(page);
    expect(await text(page, 'phone-error')).toBe('A Ghana mobile number has 10 digits, such as 024 123 4567.');
    expect(await page.getAttribute('#phone', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#phone')).toBe('024 123 456');
    expect(await page.inputValue('#amount')).toBe('GH₵25');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'charge-errors');
    expect(await transactionsFor('23324123456')).toHaveLength(0);
  });

  it('history: today first with pending marked, search by the last digits, a payment in detail', async () => {
    const { page } = till.get();
    // Leave one payment pending: a slow approval the cashier stops waiting for.
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.locator('#amount').focus();
    await page.keyboard.press('Escape');
    clock.hold();
    await sellToWaiting(page, '8.8', '0241238806');
    await stopWaiting(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabTo(page, /^History/);
    await enter(page);
    await focused(page, 'history-search');
    await expect.poll(() => page.getByTestId('history-row').count()).toBeGreaterThanOrEqual(9);
    const first = page.getByTestId('history-row').first();
    expect(await first.textContent()).toMatch(/^Today .*GH₵8.80.*Pending/);
    expect(await first.getAttribute('class')).toContain('row-pending');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'history');
    // The pending one resolves while the list is open.
    clock.release();
    await expect.poll(() => first.textContent(), { timeout: 15_000 }).toMatch(/GH₵8.80.*Paid/);
    await page.keyboard.type('4501');
    await expect.poll(() => page.getByTestId('history-row').count()).toBe(2);
    expect(await text(page, 'history-count')).toBe('2 payments');
    await tabTo(page, /^Open/);
    await enter(page);
    await page.getByTestId('payment-detail').waitFor();
    expect(await text(page, 'payment-detail')).toMatch(/Not paid/);
    expect(await text(page, 'payment-detail')).toContain('024 123 4501');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'history-detail');
  });

  it('the touch keypad types into the amount, then into the number once it was used', async () => {
    const { page } = till.get();
    await tabTo(page, /^Charge/);
    await enter(page);
    await focused(page, 'amount');
    await page.keyboard.press('Escape');
    for (const key of ['4', '5', 'Decimal point', '5']) await page.getByRole('button', { name: key, exact: true }).click();
    expect(await page.inputValue('#amount')).toBe('GH₵45.5');
    await page.getByRole('button', { name: 'Delete last digit' }).click();
    await page.getByRole('button', { name: 'Delete last digit' }).click();
    await page.getByRole('button', { name: 'Delete last digit' }).click();
    expect(await page.inputValue('#amount')).toBe('GH₵4');
    await focused(page, 'amount'); // the keypad never takes the focus away
    await page.locator('#phone').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    for (const key of '0201234567') await page.getByRole('button', { name: key, exact: true }).click();
    expect(await page.inputValue('#phone')).toBe('020 123 4567');
    expect(await page.inputValue('#network')).toBe('TELECEL');
    expect(await page.inputValue('#amount')).toBe('GH₵4');
  });
});
