/**
 * Money in momo-till.
 *
 * On the wire an amount is a decimal string in GHS with exactly two places ("12.50").
 * Inside the programs it is an integer number of pesewas (1 GHS = 100 pesewas).
 * Nothing here ever goes through floating point: strings are parsed digit by digit
 * and arithmetic is done on safe integers (or BigInt where a product could overflow).
 */

/** Largest amount accepted anywhere: GH₵ 9,999,999,999.99 (keeps every sum a safe integer). */
export const MAX_AMOUNT_DIGITS = 10;
export const MAX_PESEWAS = 10 ** MAX_AMOUNT_DIGITS * 100 - 1;

const WIRE_AMOUNT = /^(0|[1-9][0-9]*)\.([0-9]{2})$/;

export class MoneyError extends Error {
  override name = 'MoneyError';
}

export type ParseAmountOptions = {
  /** Accept "0.00" (fees, nets of failed transactions). Default: false, the amount must be positive. */
  allowZero?: boolean;
};

/**
 * Parse a wire amount ("12.50") into pesewas. Throws MoneyError with a message a person can act on.
 * Rejects "1.5", "-1.00", "1e3", " 1.00", "01.00", absurd lengths and (unless allowZero) "0.00".
 */
export function parseAmount(text: unknown, options: ParseAmountOptions = {}): number {
  if (typeof text !== 'string') throw new MoneyError('Amount must be a string such as "12.50".');
  if (text.length > MAX_AMOUNT_DIGITS + 3) throw new MoneyError('Amount is too large.');
  const match = WIRE_AMOUNT.exec(text);
  if (!match) throw new MoneyError('Amount must have exactly two decimal places, such as "12.50".');
  const cedis = match[1] as string;
  const pesewasPart = match[2] as string;
  if (cedis.length > MAX_AMOUNT_DIGITS) throw new MoneyError('Amount is too large.');
  const pesewas = Number(cedis) * 100 + Number(pesewasPart);
  if (!Number.isSafeInteger(pesewas) || pesewas > MAX_PESEWAS) throw new MoneyError('Amount is too large.');
  if (pesewas === 0 && !options.allowZero) throw new MoneyError('Amount must be more than GH₵ 0.00.');
  return pesewas;
}

/** Like parseAmount but returns a result instead of throwing. */
export function tryParseAmount(
  text: unknown,
  options: ParseAmountOptions = {},
): { ok: true; pesewas: number } | { ok: false; error: string } {
  try {
    return { ok: true, pesewas: parseAmount(text, options) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function assertPesewas(pesewas: number): void {
  if (!Number.isSafeInteger(pesewas)) throw new MoneyError(`Not a whole number of pesewas: ${pesewas}`);
}

/** Format pesewas as a wire amount: 1250 -> "12.50", -5 -> "-0.05". */
/** A signed amount as formatAmount writes one ("-12.50": a correction taking figures out) to pesewas. */
export function parseSignedAmount(text: string): number {
  // 0 - x, not -x: "-0.00" is 0, never -0 (which SQLite would store as a REAL -0.0).
  return text.startsWith('-') ? 0 - parseAmount(text.slice(1), { allowZero: true }) : parseAmount(text, { allowZero: true });
}

export function formatAmount(pesewas: number): string {
  assertPesewas(pesewas);
  const sign = pesewas < 0 ? '-' : '';
  const abs = Math.abs(pesewas);
  const cedis = Math.trunc(abs / 100);
  const rest = abs % 100;
  return `${sign}${cedis}.${rest.toString().padStart(2, '0')}`;
}

/** Sum pesewas exactly; throws if the total leaves the safe-integer range. */
export function addPesewas(...values: number[]): number {
  let total = 0;
  for (const value of values) {
    assertPesewas(value);
    total += value;
    if (!Number.isSafeInteger(total)) throw new MoneyError('Total is too large.');
  }
  return total;
}

/** Add wire amounts ("1.10" + "2.20" = "3.30") without floating point. */
export function addAmounts(...amounts: string[]): string {
  return formatAmount(addPesewas(...amounts.map((a) => parseAmount(a, { allowZero: true }))));
}

/**
 * Fee for an amount at a rate in basis points (1.95% = 195), rounded half-up to the pesewa.
 * Uses BigInt for the product so large amounts stay exact.
 */
export function feeForAmount(pesewas: number, basisPoints: number): number {
  assertPesewas(pesewas);
  // The half-up formula below is only right for x >= 0 (BigInt division truncates towards zero).
  if (pesewas < 0) throw new MoneyError('A fee cannot be computed on a negative amount.');
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) {
    throw new MoneyError('Fee rate must be a whole number of basis points between 0 and 10000.');
  }
  const product = BigInt(pesewas) * BigInt(basisPoints);
  const fee = (product * 2n + 10_000n) / 20_000n; // floor(x / 10000 + 1/2): half-up for non-negative x
  return Number(fee);
}

/** Parse a percentage written as a decimal string ("1.95") into basis points (195), no floats. */
export function percentToBasisPoints(text: string): number {
  const match = /^([0-9]{1,3})(?:\.([0-9]{1,2}))?$/.exec(text);
  if (!match) throw new MoneyError('A fee percentage looks like "1.95".');
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (bps > 10_000) throw new MoneyError('A fee percentage cannot exceed 100.');
  return bps;
}

const ghsFormatter = new Intl.NumberFormat('en-GH', {
  style: 'currency',
  currency: 'GHS',
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * Display pesewas for people, e.g. "GH₵12.50" / "GH₵1,234.00". Built from formatToParts on the
 * integer cedi part and the exact pesewa digits so no float ever touches the figures.
 */
export function formatGhs(pesewas: number): string {
  assertPesewas(pesewas);
  const negative = pesewas < 0;
  const abs = Math.abs(pesewas);
  const cedis = Math.trunc(abs / 100);
  const rest = (abs % 100).toString().padStart(2, '0');
  const parts = ghsFormatter.formatToParts(cedis);
  let out = '';
  for (const part of parts) {
    if (part.type === 'fraction') out += rest;
    else if (part.type === 'currency') out += 'GH₵';
    else if (part.type === 'literal' && part.value.trim() === '') out += '';
    else out += part.value;
  }
  return negative ? `-${out}` : out;
}

/**
 * Turn what a cashier types on a keypad into pesewas. The keypad is "cents-first":
 * digits shift in from the right, so typing 1,2,5,0 gives 12.50. Returns null for empty input.
 */
export function keypadDigitsToPesewas(digits: string): number | null {
  const clean = digits.replace(/^0+/, '');
  if (clean === '') return null;
  if (!/^[0-9]+$/.test(clean)) throw new MoneyError('Only digits can be typed into the amount.');
  if (clean.length > MAX_AMOUNT_DIGITS + 2) throw new MoneyError('Amount is too large.');
  return Number(clean);
}

/** How a till's amount box reads digits: "cedis" (5 is GH₵5.00, 12.5 is GH₵12.50) or "pesewas" (keypad, cents-first). */
export const AMOUNT_ENTRIES = ['cedis', 'pesewas'] as const;
export type AmountEntry = (typeof AMOUNT_ENTRIES)[number];

/** What a cashier typed, checked: pesewas (null while empty), or why it cannot be an amount. */
export type EntryCheck = { ok: true; pesewas: number | null } | { ok: false; error: string };

const CEDIS_ENTRY = /^([0-9]*)(?:\.([0-9]*))?$/;

/**
 * Cedis-first entry as people write prices: "5" is 500, "12.5" is 1250, "0.75" is 75, ".5" is 50.
 * Digit by digit, never a float. A third digit after the point is refused (there is no such coin).
 */
export function checkCedisEntry(text: string): EntryCheck {
  const match = CEDIS_ENTRY.exec(text);
  if (!match) return { ok: false, error: 'Only digits and one decimal point can be typed into the amount.' };
  const cedis = (match[1] ?? '').replace(/^0+(?=[0-9])/, '');
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return { ok: false, error: 'Two digits at most after the point: pesewas go from .01 to .99.' };
  if (cedis.length > MAX_AMOUNT_DIGITS) return { ok: false, error: 'Amount is too large.' };
  if (cedis === '' && fraction === '') return { ok: true, pesewas: null };
  return { ok: true, pesewas: Number(cedis || '0') * 100 + Number(fraction.padEnd(2, '0')) };
}

/** The entry in either mode ("pesewas": keypad digits shifted in from the right). */
export function checkAmountEntry(text: string, entry: AmountEntry): EntryCheck {
  if (entry === 'cedis') return checkCedisEntry(text);
  try {
    return { ok: true, pesewas: keypadDigitsToPesewas(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
