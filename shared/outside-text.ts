/**
 * Text the till did not write itself (descriptions, other tills' names and cashiers in echoed metadata,
 * wallet names from the service) made safe to store, show, print and export: no C0 or
 * C1 control characters (a NUL, an ESC that a receipt printer would obey) and no bidi overrides, embeddings,
 * isolates or marks (an RLO makes "GH₵ 1,500" or a number read backwards). Line breaks and tabs become a
 * space; the rest is removed. The one function every path into the till's database uses.
 */

/** C0 and C1 controls, DEL, and the bidi formatting characters (LRE..RLO, LRI..PDI, LRM, RLM, ALM). */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const BREAKS = /[\t\n\v\f\r\u0085]/g;

/** `text` without control or bidi formatting characters (line breaks and tabs become a space), not trimmed. */
export function withoutControls(text: string): string {
  return text.replace(BREAKS, ' ').replace(UNSAFE, '');
}

/** `text` without control or bidi formatting characters, trimmed: what is stored. */
export function plainText(text: string): string {
  return withoutControls(text).trim();
}

/** plainText, keeping null and undefined as null (an optional name). An empty result is null too. */
export function plainTextOrNull(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return plainText(text) || null;
}

/** True when `text` holds a character plainText removes. */
export function hasUnsafeText(text: string): boolean {
  return new RegExp(UNSAFE.source).test(text);
}
