import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkAmountEntry,
  checkCedisEntry,
  MAX_AMOUNT_DIGITS,
  MAX_PESEWAS,
  MoneyError,
  addAmounts,
  addPesewas,
  feeForAmount,
  formatAmount,
  formatGhs,
  keypadDigitsToPesewas,
  parseAmount,
  parseSignedAmount,
  percentToBasisPoints,
  tryParseAmount,
} from '../../../shared/money.js';

describe('parseAmount', () => {
  it.each([
    ['0.01', 1],
    ['0.10', 10],
    ['1.00', 100],
    ['12.50', 1250],
    ['12.05', 1205],
    ['999.99', 99999],
    ['1234.56', 123456],
    ['9999999999.99', 999999999999],
  ])('parses %s to %i pesewas', (text, pesewas) => {
    expect(parseAmount(text)).toBe(pesewas);
  });

  it('is exact where floating point is not (0.29 * 100 = 28.999999999999996)', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(parseAmount('0.29')).toBe(29);
    expect(parseAmount('1.15')).toBe(115);
    expect(parseAmount('4.35')).toBe(435);
  });

  it.each([
    ['1.5', 'two decimal places'],
    ['1', 'two decimal places'],
    ['1.', 'two decimal places'],
    ['.50', 'two decimal places'],
    ['1.500', 'two decimal places'],
    ['-1.00', 'two decimal places'],
    ['+1.00', 'two decimal places'],
    ['1e3', 'two decimal places'],
    ['1e3.00', 'two decimal places'],
    [' 1.00', 'two decimal places'],
    ['1.00 ', 'two decimal places'],
    ['01.00', 'two decimal places'],
    ['00.50', 'two decimal places'],
    ['1,000.00', 'two decimal places'],
    ['1_000.00', 'two decimal places'],
    ['1,50', 'two decimal places'],
    ['GH₵1.00', 'two decimal places'],
    ['0x10.00', 'two decimal places'],
    ['١.٠٠', 'two decimal places'], // Arabic-Indic digits are not ASCII digits
    ['', 'two decimal places'],
    ['NaN', 'two decimal places'],
    ['Infinity', 'two decimal places'],
  ])('rejects %j (%s)', (text, fragment) => {
    expect(() => parseAmount(text)).toThrow(MoneyError);
    expect(() => parseAmount(text)).toThrow(fragment);
  });

  it('rejects non-strings with a message that shows the expected form', () => {
    for (const value of [12.5, 1250, null, undefined, {}, ['1.00'], 10n]) {
      expect(() => parseAmount(value)).toThrow('Amount must be a string such as "12.50".');
    }
  });

  it('rejects "0.00" unless allowZero, and accepts it with allowZero', () => {
    expect(() => parseAmount('0.00')).toThrow('Amount must be more than GH₵ 0.00.');
    expect(parseAmount('0.00', { allowZero: true })).toBe(0);
    expect(parseAmount('0.01', { allowZero: true })).toBe(1);
    expect(() => parseAmount('-0.00', { allowZero: true })).toThrow(MoneyError);
  });

  it('accepts exactly the maximum and rejects one pesewa more', () => {
    expect(MAX_PESEWAS).toBe(999_999_999_999);
    expect(MAX_AMOUNT_DIGITS).toBe(10);
    expect(parseAmount('9999999999.99')).toBe(MAX_PESEWAS);
    expect(() => parseAmount('10000000000.00')).toThrow('Amount is too large.');
  });

  it('rejects absurd lengths', () => {
    expect(() => parseAmount(`${'9'.repeat(20)}.00`)).toThrow('Amount is too large.');
    expect(() => parseAmount(`${'1'.repeat(1_000_000)}.00`)).toThrow('Amount is too large.');
    expect(() => parseAmount('1'.repeat(100_000))).toThrow(MoneyError);
  });
});

describe('tryParseAmount', () => {
  it('returns the pesewas or the same message parseAmount throws', () => {
    expect(tryParseAmount('12.50')).toEqual({ ok: true, pesewas: 1250 });
    expect(tryParseAmount('1.5')).toEqual({
      ok: false,
      error: 'Amount must have exactly two decimal places, such as "12.50".',
    });
    expect(tryParseAmount('0.00')).toEqual({ ok: false, error: 'Amount must be more than GH₵ 0.00.' });
    expect(tryParseAmount('0.00', { allowZero: true })).toEqual({ ok: true, pesewas: 0 });
  });
});

describe('formatAmount', () => {
  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [5, '0.05'],
    [10, '0.10'],
    [99, '0.99'],
    [100, '1.00'],
    [1250, '12.50'],
    [123456, '1234.56'],
    [MAX_PESEWAS, '9999999999.99'],
    [-5, '-0.05'],
    [-100, '-1.00'],
    [-123456, '-1234.56'],
  ])('formats %i as %s', (pesewas, text) => {
    expect(formatAmount(pesewas)).toBe(text);
  });

  it('formats negative zero as "0.00"', () => {
    expect(formatAmount(-0)).toBe('0.00');
  });

  it('round-trips every amount it produces for the wire', () => {
    for (const pesewas of [1, 7, 10, 99, 100, 101, 1999, 1250, 100000, MAX_PESEWAS]) {
      expect(parseAmount(formatAmount(pesewas))).toBe(pesewas);
    }
  });

  it('refuses fractions of a pesewa, NaN, Infinity and unsafe integers', () => {
    for (const value of [0.5, 12.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => formatAmount(value)).toThrow(MoneyError);
    }
  });
});

describe('addPesewas / addAmounts', () => {
  it('adds "0.10" + "0.20" to exactly "0.30" (float gives 0.30000000000000004)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addAmounts('0.10', '0.20')).toBe('0.30');
  });

  it('adds several amounts, zero included', () => {
    expect(addAmounts('1.10', '2.20', '0.00', '0.05')).toBe('3.35');
    expect(addAmounts('9999999999.99', '0.01')).toBe('10000000000.00');
    expect(addAmounts()).toBe('0.00');
  });

  it('rejects malformed wire amounts in a sum', () => {
    expect(() => addAmounts('1.00', '1.5')).toThrow(MoneyError);
    expect(() => addAmounts('1.00', '-1.00')).toThrow(MoneyError);
  });

  it('adds pesewas exactly, negatives included', () => {
    expect(addPesewas(10, 20)).toBe(30);
    expect(addPesewas(1250, -250)).toBe(1000);
    expect(addPesewas()).toBe(0);
  });

  it('refuses non-integers and totals beyond the safe-integer range', () => {
    expect(() => addPesewas(1, 0.5)).toThrow('Not a whole number of pesewas: 0.5');
    expect(() => addPesewas(Number.MAX_SAFE_INTEGER, 1)).toThrow('Total is too large.');
  });
});

describe('feeForAmount', () => {
  it('charges 1.95% (195 bps) of whole amounts exactly', () => {
    expect(feeForAmount(10000, 195)).toBe(195); // GH₵100.00 -> GH₵1.95
    expect(feeForAmount(100, 195)).toBe(2); // 1.95 pesewas -> 2
    expect(feeForAmount(1250, 195)).toBe(24); // 24.375 -> 24
  });

  it('rounds half-up exactly at the .5 pesewa boundary', () => {
    // 1000 * 195 / 10000 = 19.5 exactly -> 20 (half-up, not banker's 20/round-down 19)
    expect(feeForAmount(1000, 195)).toBe(20);
    // 3000 * 195 / 10000 = 58.5 -> 59 (banker's rounding would give 58)
    expect(feeForAmount(3000, 195)).toBe(59);
    // 5000 * 195 / 10000 = 97.5 -> 98
    expect(feeForAmount(5000, 195)).toBe(98);
    // one pesewa either side of a boundary
    expect(feeForAmount(2974, 195)).toBe(58); // 57.993
    expect(feeForAmount(2999, 195)).toBe(58); // 58.4805
    expect(feeForAmount(3001, 195)).toBe(59); // 58.5195
    // 1 pesewa at 50% = 0.5 -> 1; at 49.99% = 0.4999 -> 0
    expect(feeForAmount(1, 5000)).toBe(1);
    expect(feeForAmount(1, 4999)).toBe(0);
  });

  it('stays exact for large amounts where a float product would not', () => {
    // 999,999,999,999 * 195 = 194,999,999,999,805 -> / 10000 = 19,499,999,999.9805 -> 19,500,000,000
    expect(feeForAmount(MAX_PESEWAS, 195)).toBe(19_500_000_000);
    // 9,007,199,254,740,991 * 5000 / 10000 = 4,503,599,627,370,495.5 -> ...496
    expect(feeForAmount(Number.MAX_SAFE_INTEGER, 5000)).toBe(4_503_599_627_370_496);
    // 123,456,789,005 * 195 / 10000 = 2,407,407,385.5975 -> 2,407,407,386
    expect(feeForAmount(123_456_789_005, 195)).toBe(2_407_407_386);
  });

  it('handles the rate bounds 0 and 10000 bps', () => {
    expect(feeForAmount(123456, 0)).toBe(0);
    expect(feeForAmount(123456, 10_000)).toBe(123456);
    expect(feeForAmount(0, 195)).toBe(0);
  });

  it('refuses rates outside 0..10000 or fractional basis points', () => {
    for (const bps of [-1, 10_001, 1.5, Number.NaN]) {
      expect(() => feeForAmount(1000, bps)).toThrow('Fee rate must be a whole number of basis points');
    }
  });

  it('refuses negative and fractional amounts', () => {
    expect(() => feeForAmount(-1000, 195)).toThrow('A fee cannot be computed on a negative amount.');
    expect(() => feeForAmount(-1, 5000)).toThrow(MoneyError);
    expect(() => feeForAmount(10.5, 195)).toThrow(MoneyError);
  });

  it('gives a net that adds back up to the amount', () => {
    for (const pesewas of [1, 99, 1000, 1250, 3000, 77777, MAX_PESEWAS]) {
      const fee = feeForAmount(pesewas, 195);
      expect(addPesewas(pesewas - fee, fee)).toBe(pesewas);
      expect(fee).toBeLessThanOrEqual(pesewas);
    }
  });
});

describe('percentToBasisPoints', () => {
  it.each([
    ['1.95', 195],
    ['0', 0],
    ['0.5', 50],
    ['2.5', 250],
    ['1', 100],
    ['0.01', 1],
    ['100', 10_000],
    ['100.00', 10_000],
  ])('%s%% is %i bps', (text, bps) => {
    expect(percentToBasisPoints(text)).toBe(bps);
  });

  it.each(['', '1.955', '-1', '1e2', ' 1.95', '1.', '.5', '1,95', '1000', 'abc'])('rejects %j', (text) => {
    expect(() => percentToBasisPoints(text)).toThrow('A fee percentage looks like "1.95".');
  });

  it('rejects more than 100%', () => {
    expect(() => percentToBasisPoints('100.01')).toThrow('A fee percentage cannot exceed 100.');
    expect(() => percentToBasisPoints('101')).toThrow('A fee percentage cannot exceed 100.');
  });
});

describe('formatGhs', () => {
  it.each([
    [1250, 'GH₵12.50'],
    [0, 'GH₵0.00'],
    [5, 'GH₵0.05'],
    [100, 'GH₵1.00'],
    [99999, 'GH₵999.99'],
    [123400, 'GH₵1,234.00'],
    [123456789, 'GH₵1,234,567.89'],
    [MAX_PESEWAS, 'GH₵9,999,999,999.99'],
    [-5, '-GH₵0.05'],
    [-123456, '-GH₵1,234.56'],
  ])('shows %i pesewas as %s', (pesewas, shown) => {
    expect(formatGhs(pesewas)).toBe(shown);
  });

  it('keeps the pesewa digits exact (no float rounding of .005-style values)', () => {
    expect(formatGhs(1005)).toBe('GH₵10.05');
    expect(formatGhs(29)).toBe('GH₵0.29');
    expect(formatGhs(Number.MAX_SAFE_INTEGER)).toBe('GH₵90,071,992,547,409.91');
  });

  it('refuses non-integer pesewas', () => {
    expect(() => formatGhs(12.5)).toThrow(MoneyError);
  });
});

describe('keypadDigitsToPesewas', () => {
  it('shifts digits in from the right (cents-first keypad)', () => {
    expect(keypadDigitsToPesewas('1')).toBe(1);
    expect(keypadDigitsToPesewas('12')).toBe(12);
    expect(keypadDigitsToPesewas('125')).toBe(125);
    expect(keypadDigitsToPesewas('1250')).toBe(1250);
    expect(keypadDigitsToPesewas('100000')).toBe(100000);
  });

  it('ignores leading zeros and gives null for nothing typed', () => {
    expect(keypadDigitsToPesewas('')).toBeNull();
    expect(keypadDigitsToPesewas('0')).toBeNull();
    expect(keypadDigitsToPesewas('000')).toBeNull();
    expect(keypadDigitsToPesewas('0050')).toBe(50);
  });

  it('accepts up to the maximum amount and refuses one digit more', () => {
    expect(keypadDigitsToPesewas('999999999999')).toBe(MAX_PESEWAS);
    expect(() => keypadDigitsToPesewas('1000000000000')).toThrow('Amount is too large.');
  });

  it('refuses anything but digits', () => {
    for (const typed of ['12.50', '1a', '-1', ' 1', '1e3']) {
      expect(() => keypadDigitsToPesewas(typed)).toThrow('Only digits can be typed into the amount.');
    }
  });
});

describe('checkCedisEntry (cedis-first amount entry)', () => {
  it.each([
    ['5', 500],
    ['12.5', 1250],
    ['12.50', 1250],
    ['12.05', 1205],
    ['0.75', 75],
    ['.5', 50],
    ['7.', 700],
    ['007', 700],
    ['0', 0],
    ['00', 0],
    ['0.5', 50],
    ['000000000005', 500],
    ['00000000000012.5', 1250],
    ['1000', 100000],
  ])('%s is %i pesewas', (text, pesewas) => {
    expect(checkCedisEntry(text)).toEqual({ ok: true, pesewas });
  });

  it('gives null while nothing is typed, and refuses a third decimal digit, a second point or letters', () => {
    expect(checkCedisEntry('')).toEqual({ ok: true, pesewas: null });
    expect(checkCedisEntry('.')).toEqual({ ok: true, pesewas: null });
    expect(checkCedisEntry('12.505')).toMatchObject({ ok: false, error: expect.stringMatching(/Two digits at most/) });
    expect(checkCedisEntry('1.2.3')).toEqual({ ok: false, error: 'Only digits and one decimal point can be typed into the amount.' });
    expect(checkCedisEntry('1e3')).toEqual({ ok: false, error: 'Only digits and one decimal point can be typed into the amount.' });
    expect(checkCedisEntry('12345678901')).toMatchObject({ ok: false, error: 'Amount is too large.' });
  });

  it('reads back every wire amount exactly (no floating point anywhere)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_PESEWAS }), (pesewas) => {
        expect(checkCedisEntry(formatAmount(pesewas))).toEqual({ ok: true, pesewas });
      }),
    );
  });

  it('checkAmountEntry keeps the pesewas-first keypad for shops used to it', () => {
    expect(checkAmountEntry('1250', 'pesewas')).toEqual({ ok: true, pesewas: 1250 });
    expect(checkAmountEntry('1250', 'cedis')).toEqual({ ok: true, pesewas: 125000 });
    expect(checkAmountEntry('12.5', 'pesewas')).toEqual({ ok: false, error: 'Only digits can be typed into the amount.' });
  });
});

describe('parseSignedAmount', () => {
  it('reads back what formatAmount writes, negative too (a correction taking figures out)', () => {
    for (const pesewas of [0, 5, 1250, -5, -1250, -100_000_00]) expect(parseSignedAmount(formatAmount(pesewas))).toBe(pesewas);
    expect(() => parseSignedAmount('--1.00')).toThrow(new MoneyError('Amount must have exactly two decimal places, such as "12.50".'));
    expect(() => parseSignedAmount('-1.5')).toThrow(new MoneyError('Amount must have exactly two decimal places, such as "12.50".'));
  });

  it('throws a MoneyError by that name (logs and IPC answers show it)', () => {
    const error = new MoneyError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MoneyError');
  });

  it('reads "-0.00" as zero, not as negative zero (issue 22)', () => {
    // -0 is not 0 to Object.is, and reaches SQLite as a REAL -0.0 where pesewas are integers.
    expect(Object.is(parseSignedAmount('-0.00'), 0)).toBe(true);
    expect(Object.is(parseSignedAmount('0.00'), 0)).toBe(true);
    expect(parseSignedAmount('-0.05')).toBe(-5);
  });
});
