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
 * escape sequences), line and paragraph separators, the bidirectional marks, overrides and isolates
 * that reorder what follows them, and every other invisible or format character (a zero-width space
 * makes `Alpha\u200BShop` another name that looks the same). The zero-width joiner and non-joiner
 * stay allowed: some scripts and emoji need them.
 */
export const NAME_FORBIDDEN_CHARACTERS = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0]/u;

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

/** Scripts whose letters look alike (Latin A, Cyrillic А, Greek Α): one word mixing them is a look-alike. */
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/** True when one word of the text holds letters of two look-alike scripts (`Аlpha`: a Cyrillic А, then Latin). */
export function mixesLookAlikeScripts(text: string): boolean {
  return text.split(/[^\p{L}\p{M}]+/u).some((word) => LOOK_ALIKE_SCRIPTS.filter((script) => script.test(word)).length > 1);
}

/**
 * Why a name or label that people tell apart by eye (a merchant's name, a till's label) can't be
 * kept, or null when it can: blank, padded with spaces, holding an unpaired surrogate, a forbidden
 * character (NAME_FORBIDDEN_CHARACTERS), or a word mixing look-alike scripts. The one check every
 * program runs on such a name when it is made.
 */
export function nameProblem(text: string): string | null {
  if (text.trim().length === 0) return 'must not be blank';
  if (text.trim() !== text) return 'must not start or end with a space';
  if (/\p{Cs}/u.test(text)) return 'must not hold an unpaired surrogate (text that is not valid Unicode)';
  if (hasForbiddenNameCharacters(text)) {
    return `must not hold control, invisible, line-separator or bidirectional characters (given "${visibleName(text)}")`;
  }
  if (mixesLookAlikeScripts(text)) {
    return `must not mix Latin, Cyrillic or Greek letters in one word, which look alike (given "${text}")`;
  }
  return null;
}
