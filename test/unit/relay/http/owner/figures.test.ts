import { describe, expect, it } from 'vitest';
import { addDays, dayHours, maskMsisdn, neutralise } from '../../../../../relay/http/owner/figures.js';

const hourOf = (iso: string) => Date.parse(iso) / 3_600_000;

describe("the owner's page figures (issue 21)", () => {
  it('folds UTC hours into local days: Accra is UTC, Lagos one hour ahead, a DST day in London has 23 hours', () => {
    expect(dayHours('2026-11-25', 'Africa/Accra')).toEqual({ from: hourOf('2026-11-25T00:00:00Z'), to: hourOf('2026-11-26T00:00:00Z') });
    expect(dayHours('2026-11-25', 'Africa/Lagos')).toEqual({ from: hourOf('2026-11-24T23:00:00Z'), to: hourOf('2026-11-25T23:00:00Z') });
    const spring = dayHours('2026-03-29', 'Europe/London');
    expect(spring.to - spring.from).toBe(23);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('masks a number as 024 *** 4567 and anything else as ***', () => {
    expect(maskMsisdn('233241234567')).toBe('024 *** 4567');
    expect(maskMsisdn('0241234567')).toBe('***');
    expect(maskMsisdn(null)).toBe('***');
  });

  it('neutralises outside text: control and bidirectional characters out, bounded', () => {
    expect(neutralise('Rice\u202e\u0007 and\n\nbeans', 140)).toBe('Rice and beans');
    expect(neutralise('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(neutralise(42, 10)).toBe('');
    // NUL is a control character; an unpaired surrogate (either half) becomes U+FFFD, a paired one stays.
    expect(neutralise('a\u0000b \ud800 \udc00 \ud83d\ude00', 20)).toBe('a b \ufffd \ufffd \ud83d\ude00');
    // Every character a name may not hold, as the stores refuse them (soft hyphen, word joiner, Arabic letter mark, tags…).
    expect(neutralise('a\u00adb\u2060c\u061cd\u{e0041}e\u3164f', 20)).toBe('a b c d e f');
  });
});
