/**
 * Which characters outside text may hold, one rule for every program: identifiers that people read
 * and programs match (service references, a till's merchantRef) and names shown on screens and
 * terminals (a merchant's name).
 */

/**
 * Characters that show as nothing or change how the text around them shows: Unicode Cc (C0 and C1
 * controls), Cf (format: zero-width space and joiners, word joiner, byte-order mark, soft hyphen,
 * bidirectional marks, overrides and isolates, …), Zl and Zp (line and paragraph separators) and
 * the Hangul fillers, which render as blanks. Two references that look alike must be alike.
 */
export const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]/u;

/**
 * What a name must not hold: controls (a terminal would obey them: `merchant list` once printed raw
 * escape sequences), line and paragraph separators, and the bidirectional marks, overrides and
 * isolates that reorder what follows them. Zero-width joiners stay allowed: some scripts and emoji
 * need them.
 */
export const NAME_FORBIDDEN_CHARACTERS = /[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** True when an identifier (a reference, a merchantRef) holds an invisible or format character. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE_CHARACTERS.test(text);
}

/** True when a name holds a control, separator or bidirectional character. */
export function hasForbiddenNameCharacters(text: string): boolean {
  return NAME_FORBIDDEN_CHARACTERS.test(text);
}

/**
 * The text safe to print on a terminal or in a message: each character `forbidden` matches (by
 * default every invisible, control or format one) written as `\u{…}`, so an operator sees that it is
 * there and nothing obeys it.
 */
export function visibleText(text: string, forbidden: RegExp = INVISIBLE_CHARACTERS): string {
  const every = new RegExp(forbidden.source, 'gu');
  return text.replace(every, (c) => `\\u{${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}}`);
}

/** A name safe to print: its forbidden characters written as `\u{…}` (joiners, which names may hold, kept). */
export function visibleName(name: string): string {
  return visibleText(name, NAME_FORBIDDEN_CHARACTERS);
}
