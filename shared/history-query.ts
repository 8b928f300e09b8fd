/**
 * What a History search means, for the core that runs it and the screen that explains a query too short
 * to run: a receipt number (R-000123), a customer's number written any way people write it (024 123 4567, 0241234567,
 * +233 24 123 4567, 233241234567, or its last 4+ digits), or the start of a reference or till reference
 * in any letter case.
 */
import { receiptNoOf } from './receipt-number.js';

export const MIN_NUMBER_DIGITS = 4;
export const MIN_REFERENCE_CHARS = 3;

/** The digits a payment's number must end with, or null if the query is not a number. */
export function numberEnd(query: string): string | null {
  const compact = query.replace(/[\s\-.()]/g, '').replace(/^\+/, '');
  if (!/^[0-9]+$/.test(compact)) return null;
  // A whole number in any form comes down to its nine national digits.
  const whole = /^(?:0|233|00233)([0-9]{9})$/.exec(compact);
  if (whole) return whole[1] as string;
  return compact.length >= MIN_NUMBER_DIGITS && compact.length <= 12 ? compact : null;
}

/** Why a query is too short to search (null when it can run, and for an empty query: the whole list). */
export function queryTooShort(query: string): string | null {
  const trimmed = query.trim();
  if (trimmed === '' || receiptNoOf(trimmed) !== null) return null;
  const looksLikeNumber = /^[+0-9\s\-.()]+$/.test(trimmed);
  if (looksLikeNumber) {
    return numberEnd(trimmed) === null ? `Type at least ${MIN_NUMBER_DIGITS} digits of the customer's number.` : null;
  }
  return trimmed.length < MIN_REFERENCE_CHARS ? `Type at least ${MIN_REFERENCE_CHARS} characters of the reference.` : null;
}

/** Reference prefixes to look for: as typed, and upper-cased (references and till references are upper case). */
export function referencePrefixes(query: string): string[] {
  const trimmed = query.trim();
  return [...new Set([trimmed, trimmed.toUpperCase()])];
}
