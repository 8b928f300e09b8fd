/**
 * A receipt number as people see and type it: R-000123. The core numbers each PAID payment of this till
 * (per environment, gap-free, never reused: storage migration 15); a NOT PAID slip has none.
 */

const DIGITS = 6;

/** 123 -> "R-000123" (wider numbers keep every digit: R-1234567). */
export function formatReceiptNo(n: number): string {
  return `R-${String(n).padStart(DIGITS, '0')}`;
}

/** The number a History query names ("R-000123", "r-123", "R123"), or null when it is not a receipt number. */
export function receiptNoOf(query: string): number | null {
  const match = /^R-?\s*0*([0-9]{1,12})$/i.exec(query.trim());
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
