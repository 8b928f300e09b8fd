import { describe, expect, it } from 'vitest';
import { hasForbiddenNameCharacters, hasInvisibleCharacters, nameProblem, visibleName, visibleText } from '../../../shared/characters.js';

describe('the character rules for outside text', () => {
  it('finds every control, format, separator and Hangul filler character in an identifier', () => {
    const invisible = [
      0x00, 0x1b, 0x7f, 0x85, 0xad, 0x061c, 0x115f, 0x1160, 0x200b, 0x200d, 0x200e, 0x2028, 0x2029, 0x202e, 0x2060, 0x2066,
    ];
    for (const cp of [...invisible, 0x3164, 0xfeff, 0xffa0, 0xe0001]) {
      expect(hasInvisibleCharacters(`TX_${String.fromCodePoint(cp)}1`), cp.toString(16)).toBe(true);
    }
    for (const ok of ['TX_01JD3', 'TX_Ünïcödé', 'TX_한국어', 'a b', 'ÀÉÎ-._:']) expect(hasInvisibleCharacters(ok), ok).toBe(false);
  });

  it('refuses controls and bidirectional characters in names, keeps joiners', () => {
    for (const bad of ['a\u001bb', 'a\nb', 'a\u009bb', 'a\u202eb', 'a\u2067b', 'a\u200fb', 'a\u2029b']) {
      expect(hasForbiddenNameCharacters(bad), JSON.stringify(bad)).toBe(true);
    }
    expect(hasForbiddenNameCharacters('Family 👨\u200d👩\u200d👧')).toBe(false);
    expect(hasForbiddenNameCharacters('Ɔkɔmfo Anɔkye')).toBe(false);
  });

  it('shows what it escapes as \\u{…} and nothing that a terminal obeys', () => {
    expect(visibleText('A\u001b[2J\u200bB')).toBe('A\\u{001B}[2J\\u{200B}B');
    expect(visibleText('TX_\u{e0001}')).toBe('TX_\\u{E0001}');
    expect(visibleName('Ama\u200d\u202eX')).toBe('Ama\u200d\\u{202E}X');
  });

  it('refuses names that look like another: invisible characters, look-alike scripts in one word, blank or padded', () => {
    const refused: Array<[string, RegExp]> = [
      ['Alpha\u200bShop', /invisible/],
      ['Alpha\ufeffShop', /invisible/],
      ['Alpha\u00adShop', /invisible/],
      ['\u0410lpha Shop', /mix Latin, Cyrillic or Greek/],
      ['P\u0430yPoint', /mix Latin, Cyrillic or Greek/],
      ['Ama \u0391lpha', /mix Latin, Cyrillic or Greek/],
      ['', /blank/],
      ['   ', /blank/],
      [' Ama', /start or end with a space/],
      ['Ama\ud800', /unpaired surrogate/],
      ['Ama\u0000', /control/],
    ];
    for (const [name, why] of refused) expect(nameProblem(name), JSON.stringify(name)).toMatch(why);
    for (const ok of ['Ama Stores', 'Магазин Ама', 'Ɔkɔmfo Anɔkye', 'Family 👨\u200d👩\u200d👧', 'front-counter 2', 'Αθήνα Café']) {
      expect(nameProblem(ok), ok).toBeNull();
    }
  });
});
