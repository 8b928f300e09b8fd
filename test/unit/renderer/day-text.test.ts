/** Dates typed day first, as the till's locale (en-GH) writes them, and the words for what is wrong. */
import { describe, expect, it } from 'vitest';
import { axisDay, dayText, parseDayText } from '../../../renderer/src/format.js';

describe('parseDayText', () => {
  it('reads a day-first date with any usual separator, one or two digits for day and month', () => {
    for (const typed of ['22/11/2026', '22-11-2026', '22.11.2026', ' 22/11/2026 ', '22 11 2026']) {
      expect(parseDayText(typed)).toEqual({ ok: true, date: '2026-11-22' });
    }
    expect(parseDayText('2/3/2026')).toEqual({ ok: true, date: '2026-03-02' });
    expect(parseDayText('29/02/2028')).toEqual({ ok: true, date: '2028-02-29' });
  });

  it('round-trips every day of a year with dayText', () => {
    for (let d = new Date('2026-01-01T00:00:00Z'); d.getUTCFullYear() === 2026; d.setUTCDate(d.getUTCDate() + 1)) {
      const iso = d.toISOString().slice(0, 10);
      expect(parseDayText(dayText(iso))).toEqual({ ok: true, date: iso });
    }
  });

  it('says what is wrong: empty, not a date, a month-first date, a day the month lacks, a short year', () => {
    expect(parseDayText('')).toEqual({ ok: false, message: 'Type a date, day first: 22/11/2026.' });
    expect(parseDayText('2026-11-22')).toEqual({ ok: false, message: '“2026-11-22” is not a date: write it day first, as 22/11/2026.' });
    expect(parseDayText('10/24/2026')).toEqual({ ok: false, message: 'There is no month 24: write the day first, as 22/11/2026.' });
    expect(parseDayText('31/02/2026')).toEqual({ ok: false, message: 'February 2026 has no day 31 (it has 28 days).' });
    expect(parseDayText('0/1/2026')).toEqual({ ok: false, message: 'January 2026 has no day 0 (it has 31 days).' });
    expect(parseDayText('22/11/26')).toEqual({ ok: false, message: '“22/11/26” is not a date: write it day first, as 22/11/2026.' });
    expect(parseDayText('22/11/1926')).toEqual({ ok: false, message: '1926 is out of range: write this century’s year in full, as 2026.' });
  });
});

describe('axisDay', () => {
  it("labels the takings chart's days day first, never month first", () => {
    expect(axisDay('2026-11-26')).toBe('26 Nov');
    expect(axisDay('2026-01-03')).toBe('3 Jan');
    expect(axisDay('2026-12-31')).toBe('31 Dec');
  });
});
