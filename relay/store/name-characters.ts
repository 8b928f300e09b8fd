/**
 * The characters a name must not hold (shared/characters.ts, NAME_FORBIDDEN_CHARACTERS: controls, format and
 * invisible characters, bidirectional controls, line and paragraph separators, Hangul fillers; the zero-width
 * joiners allowed) as code point ranges, for the stores' own refusals, which can't read Unicode properties.
 * Migrations write them into the schema, so this list is what they wrote: a Unicode version that adds a
 * format character needs a new migration (test/unit/relay/store/name-characters.test.ts says when).
 */
export const FORBIDDEN_NAME_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x115f, 0x1160],
  [0x180e, 0x180e],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
];

const pgEscape = (c: number) => (c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`);

/**
 * The ranges as a PostgreSQL regular expression's bracket expression (escapes the regex engine reads, so the
 * SQL text holds no raw control). PostgreSQL's text holds no NUL, so the first range starts at U+0001.
 */
export function pgForbiddenNameClass(): string {
  const parts = FORBIDDEN_NAME_RANGES.map(([from, to]) => {
    const start = Math.max(from, 1);
    return start === to ? pgEscape(start) : `${pgEscape(start)}-${pgEscape(to)}`;
  });
  return `[${parts.join('')}]`;
}

/** The ranges as a JavaScript expression matching every such character (for a store that neutralises in code). */
export function forbiddenNamePattern(): RegExp {
  const hex = (c: number) => `\\u{${c.toString(16)}}`;
  return new RegExp(`[${FORBIDDEN_NAME_RANGES.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('')}]`, 'gu');
}

/**
 * The ranges as a SQLite GLOB bracket expression (the characters themselves: GLOB compares code points; NUL,
 * which no pattern can hold, is matched apart).
 */
export function sqliteForbiddenNameGlob(): string {
  const char = (c: number) => String.fromCodePoint(Math.max(c, 1));
  return `*[${FORBIDDEN_NAME_RANGES.map(([from, to]) => (from === to ? char(from) : `${char(from)}-${char(to)}`)).join('')}]*`;
}
