/**
 * The counter's amount box: every input it refuses says what is wrong and how to fix it, and a refusal keeps
 * what the box held (nextAmount answers `refused`, and the form keeps its amount), never a silent change of
 * the amount (a comma or a letter dropped: "10,00" became GH₵1,000.00, "1e3" GH₵0.13 pesewas first).
 */
import { describe, expect, it } from 'vitest';
import { amountError, amountText, nextAmount } from '../../../renderer/src/charge/sale-form.js';
import type { AmountEntry } from '../../../shared/money.js';

/** The box held `before` and now reads `text` (typed or pasted into it): what the form keeps, or why not. */
const typed = (before: string, text: string, entry: AmountEntry = 'cedis') => nextAmount(text, entry, before);
/** A refusal names what is wrong and shows a way to write it (an example amount). */
const HOW = /such as|type an amount of at most|1 2 5 0/;

describe('the amount box refuses with what is wrong and how to fix it', () => {
  it.each([
    ['', '-5', /minus/i],
    ['', 'abc', /letter/i],
    ['', '1e3', /letter/i],
    ['', '10,00', /point for pesewas/i],
    ['10', `${amountText('10', 'cedis')},`, /point for pesewas/i],
    ['1.23', `${amountText('1.23', 'cedis')}4`, /Two digits at most after the point/],
    ['1.2', `${amountText('1.2', 'cedis')}.`, /one point/i],
    ['', '12345678901', /at most GH₵9,999,999,999\.99/],
    ['', '5$', /only digits/i],
  ])('cedis first: %j then %j', (before, text, what) => {
    const next = typed(before, text);
    expect(next).toEqual({ refused: expect.stringMatching(what) });
    expect((next as { refused: string }).refused).toMatch(HOW);
  });

  it.each([
    ['', '1e3', /letter/i],
    ['', '-5', /minus/i],
    ['', '10.5', /no point/i],
    ['', '10,00', /digits only/i],
    ['', '1234567890123', /at most GH₵9,999,999,999\.99/],
  ])('pesewas first: %j then %j', (before, text, what) => {
    const next = typed(before, text, 'pesewas');
    expect(next).toEqual({ refused: expect.stringMatching(what) });
    expect((next as { refused: string }).refused).toMatch(HOW);
  });

  it('takes what is an amount: thousands typed or pasted as written, the box’s own text, the keypad’s digits', () => {
    expect(typed('', '1,000.50')).toEqual({ amount: '1000.50' });
    expect(typed('100', `${amountText('100', 'cedis')}0`)).toEqual({ amount: '1000' }); // "GH₵1000"
    expect(typed('1000', `${amountText('1000', 'cedis')}0`)).toEqual({ amount: '10000' }); // "GH₵1,0000"
    expect(typed('1000', 'GH₵1,00')).toEqual({ amount: '100' }); // a backspace
    expect(typed('', 'GH₵12.5')).toEqual({ amount: '12.5' });
    expect(typed('12', '125')).toEqual({ amount: '125' }); // the keypad sends the amount itself
    expect(typed('125', `${amountText('125', 'pesewas')}0`, 'pesewas')).toEqual({ amount: '1250' });
  });

  it('at Enter: empty, zero and a point alone each say what to type', () => {
    expect(amountError('', 'cedis')).toBe('Type the amount to charge (more than GH₵0.00).');
    expect(amountError('0', 'cedis')).toMatch(/GH₵0\.00 cannot be charged.*such as/);
    expect(amountError('0.00', 'cedis')).toMatch(/GH₵0\.00 cannot be charged/);
    expect(amountError('.', 'cedis')).toMatch(/point alone.*such as/i);
    expect(amountError('12.5', 'cedis')).toBeNull();
  });
});
