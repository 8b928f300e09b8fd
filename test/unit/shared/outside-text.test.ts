/**
 * Outside text: what plainText keeps and removes, and CSV cells that carry no control or
 * bidi character and never start like a formula. Property tests over any string (fast-check: it finds the
 * odd code point a hand-written list forgets).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasUnsafeText, plainText, plainTextOrNull } from '../../../shared/outside-text.js';
import { csvCell } from '../../../shared/csv.js';

const UNSAFE = ['\u0000', '\u001b', '\u0007', '\u007f', '\u0085', '\u009b', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
const ISOLATES_AND_MARKS = ['\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
/** Any string with the characters that matter mixed in often. */
const outside = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      ...UNSAFE,
      ...ISOLATES_AND_MARKS,
      '\t',
      '\n',
      '\r',
      '=',
      '+',
      '-',
      '@',
      ' ',
      '\u00a0',
      '\u200b',
      '\uff1d',
      ';',
      '|',
      '"',
      ',',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 40,
});

/** The text of a cell as a spreadsheet reads it (RFC 4180 unquoted). */
const unquoted = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);

describe('plainText', () => {
  it('removes what the issue found stored: the RLO of a till name, an ESC and a NUL in a description', () => {
    expect(plainText('<b>Front</b>\u202e1 lliT')).toBe('<b>Front</b>1 lliT');
    expect(plainText('Milo 400g\u001b@ \u2014 1 tin\u0000')).toBe('Milo 400g@ \u2014 1 tin');
    expect(plainText('two\nlines\tand a tab')).toBe('two lines and a tab');
    expect(plainText('Ama \u2067\u0627\u0645\u0627\u2069 Owusu')).toBe('Ama \u0627\u0645\u0627 Owusu'); // Arabic letters stay
    expect(plainTextOrNull('\u202e\u0000 ')).toBeNull();
    expect(plainTextOrNull(undefined)).toBeNull();
  });

  it('leaves no control or bidi formatting character, changes nothing twice, and keeps every other character', () => {
    fc.assert(
      fc.property(outside, (text) => {
        const plain = plainText(text);
        expect(hasUnsafeText(plain)).toBe(false);
        expect(plainText(plain)).toBe(plain);
        // Line breaks and tabs read as a space; every character that is not removed is kept, in order.
        const kept = [...text].map((c) => (/[\t\n\v\f\r\u0085]/.test(c) ? ' ' : c)).filter((c) => !hasUnsafeText(c));
        expect(plain).toBe(kept.join('').trim());
      }),
    );
  });
});

describe('a CSV cell', () => {
  it('guards every start a spreadsheet may run: = + - @ tab CR, a space, NBSP, ZWSP, full-width ＝, ; and |', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', ' =1', '\u00a0=1', '\u200b=1', '\uff1d1+1', ';cmd', '|cmd'])
      expect(unquoted(csvCell(text)), JSON.stringify(text)).toMatch(/^'/);
    expect(csvCell('Bread')).toBe('Bread');
    expect(csvCell(12)).toBe('12');
  });

  it('carries no control or bidi character, quotes what needs it, and never starts like a formula', () => {
    fc.assert(
      fc.property(outside, (text) => {
        const cell = csvCell(text);
        expect(hasUnsafeText(cell)).toBe(false);
        expect(cell).not.toMatch(/[\r\n\t]/);
        const inside = unquoted(cell);
        if (/[",]/.test(inside)) expect(cell.startsWith('"')).toBe(true);
        expect(inside).not.toMatch(/^[=+\-@ \u00a0\u200b\uff1d;|]/);
      }),
    );
  });
});
