/** The stores' refusals of characters a name may not hold are the code's rule, code point for code point. */
import { describe, expect, it } from 'vitest';
import { NAME_FORBIDDEN_CHARACTERS } from '../../../../shared/characters.js';
import { FORBIDDEN_NAME_RANGES, pgForbiddenNameClass } from '../../../../relay/store/name-characters.js';

describe('FORBIDDEN_NAME_RANGES', () => {
  it('holds exactly the characters NAME_FORBIDDEN_CHARACTERS refuses (a new Unicode format character needs a new migration)', () => {
    const inRanges = (c: number) => FORBIDDEN_NAME_RANGES.some(([from, to]) => c >= from && c <= to);
    const differ: string[] = [];
    for (let c = 0; c <= 0x10ffff; c += 1) {
      if (c >= 0xd800 && c <= 0xdfff) continue; // no store keeps an unpaired surrogate (nameProblem refuses it)
      if (NAME_FORBIDDEN_CHARACTERS.test(String.fromCodePoint(c)) !== inRanges(c)) differ.push(c.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it("as PostgreSQL's bracket expression: escapes only, no NUL, the joiners left out", () => {
    const cls = pgForbiddenNameClass();
    expect(cls).toMatch(/^\[(\\u[0-9a-f]{4}|\\U[0-9a-f]{8}|-)+\]$/);
    expect(cls.startsWith('[\\u0001-\\u001f')).toBe(true);
    expect(cls).toContain('\\u200b\\u200e-\\u200f'); // U+200C and U+200D, the joiners, pass
    expect(cls).toContain('\\U000e0020-\\U000e007f');
  });
});
