/**
 * History at the counter: a number found however it is written, a reference in any letter
 * case, a query too short says so, and a reprint of a payment (PAID: the receipt, NOT PAID: the slip,
 * both marked REPRINT) through the result screen's own print path. Keyboard only.
 */
import { describe, expect, it } from 'vitest';
import { axe, enter, focused, goTo, sale, screenshot, tabTo, text } from '../browser-bridge/cashier.js';
import { sandboxTransactions } from '../browser-bridge/sandbox-api.js';
import { TIME_SCALE, useTill } from '../browser-bridge/suite.js';

const till = useTill(() => ({ embeddedTimeScale: TIME_SCALE }));

async function search(query: string): Promise<void> {
  const { page } = till.get();
  await page.locator('#history-search').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(query);
}

async function rows(): Promise<string[]> {
  return till.get().page.getByTestId('history-row').allTextContents();
}

describe('History at the counter', () => {
  it('takes two sales first, one PAID and one NOT PAID', async () => {
    const { page } = till.get();
    await sale(page, '4', '0241234567', 'PAID');
    await sale(page, '3', '0241234501', 'NOT PAID');
    await focused(page, 'amount');
  });

  it('finds a number written any way people write it, a reference in any case, and says when a query is too short', async () => {
    const { page } = till.get();
    await goTo(page, 'History');
    await focused(page, 'history-search');
    await page.keyboard.type('45');
    await expect.poll(() => text(page, 'history-count')).toBe("Type at least 4 digits of the customer's number.");
    expect(await rows()).toEqual([]);
    await search('tx');
    await expect.poll(() => text(page, 'history-count')).toBe('Type at least 3 characters of the reference.');
    for (const query of ['024 123 4567', '0241234567', '+233 24 123 4567', '+233241234567', '233241234567', '4567']) {
      await search(query);
      await expect.poll(() => text(page, 'history-count'), { message: query }).toBe('1 payment');
      expect((await rows())[0]).toContain('024 123 4567');
    }
    const paid = (await sandboxTransactions(till.get().sandboxUrl())).find((t) => t.msisdn === '233241234567');
    await search(paid!.reference.toLowerCase());
    await expect.poll(() => text(page, 'history-count')).toBe('1 payment');
    expect((await rows())[0]).toContain('GH₵4.00');
    expect(await axe(page)).toEqual([]);
  });

  it("shows the PAID payment's receipt number in the list and its detail, finds it by that number, and the NOT PAID one has none (issue 20 item 13)", async () => {
    const { page } = till.get();
    await search('R-000001');
    await expect.poll(() => text(page, 'history-count')).toBe('1 payment');
    expect((await rows())[0]).toMatch(/024 123 4567.*R-000001/);
    await search('r1');
    await expect.poll(() => text(page, 'history-count')).toBe('1 payment');
    await search('R-000002');
    await expect.poll(() => text(page, 'history-count')).toBe('0 payments');
    await search('4501');
    await expect.poll(() => text(page, 'history-count')).toBe('1 payment');
    expect((await rows())[0]).not.toMatch(/R-0/);
    await search('R-000001');
    // The count is '1 payment' for the search before too ('4501'): wait for this search's row before opening it.
    await expect.poll(async () => (await rows())[0]).toMatch(/024 123 4567.*R-000001/);
    await tabTo(page, /^Open/);
    await enter(page);
    await page.getByTestId('payment-detail').waitFor();
    expect(await text(page, 'detail-receipt-no')).toBe('R-000001');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'history-receipt-number');
    await tabTo(page, /^Back to the list/);
    await enter(page);
  });

  it('reprints the receipt of a PAID payment and the slip of a NOT PAID one, marked REPRINT', async () => {
    const { page } = till.get();
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    for (const [query, title, printed] of [
      ['4567', /PAID/, 1],
      ['4501', /NOT PAID/, 2],
    ] as const) {
      await search(query);
      await expect.poll(async () => (await rows()).join('|')).toMatch(new RegExp(`^[^|]*024 123 ${query}[^|]*$`));
      await tabTo(page, /^Open/);
      await enter(page);
      await page.getByTestId('payment-detail').waitFor();
      expect(await text(page, 'payment-detail')).toMatch(/TillTill 1/); // the till by its name, never its id
      await tabTo(page, /^Reprint/);
      await enter(page);
      await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(printed);
      const sheet = await text(page, 'print-sheet');
      expect(sheet).toMatch(/REPRINT/);
      expect(sheet).toMatch(title);
      // The receipt carries RECEIPT and its number; the NOT PAID slip neither.
      if (printed === 1) expect(sheet).toMatch(/RECEIPT\s*R-000001/);
      else expect(sheet).not.toMatch(/R-000001|RECEIPT\s*R-/);
      expect(await axe(page)).toEqual([]);
      if (printed === 1) await screenshot(page, 'history-reprint');
      await tabTo(page, /^Back to the list/);
      await enter(page);
      await focused(page, 'history-search');
    }
  });
});
