/** The CSV helpers every export uses: a BOM, CRLF lines, and local dates and times a spreadsheet reads. */
import { describe, expect, it } from 'vitest';
import { csvFile, csvLocalDateAndTime, csvLocalDateTime } from '../../../shared/csv.js';
import { localParts } from '../../../shared/local-date.js';

describe('csvFile', () => {
  it('starts with the UTF-8 byte-order mark EF BB BF and ends each line with CRLF', () => {
    const bytes = Buffer.from(csvFile(['a,b', 'Milo 400g — 1 tin,2']), 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('a,b\r\nMilo 400g — 1 tin,2\r\n');
  });
});

describe('local date and time cells', () => {
  it('writes the till time zone wall clock: Accra is UTC, Lagos one hour ahead', () => {
    const ms = Date.parse('2025-11-22T23:30:09.750Z');
    expect(csvLocalDateAndTime(ms, 'Africa/Accra')).toEqual(['2025-11-22', '23:30:09']);
    expect(csvLocalDateAndTime(ms, 'Africa/Lagos')).toEqual(['2025-11-23', '00:30:09']);
    expect(csvLocalDateTime(ms, 'Africa/Lagos')).toBe('2025-11-23 00:30:09');
  });

  it('agrees with Intl on every minute around a daylight-saving change, both ways (the cached offsets)', () => {
    for (const [zone, around] of [
      ['Europe/London', '2025-03-30T01:00:00Z'],
      ['Europe/London', '2025-10-26T01:00:00Z'],
      ['Australia/Lord_Howe', '2025-04-05T15:00:00Z'], // a half-hour change
    ] as const) {
      for (let ms = Date.parse(around) - 3_600_000; ms <= Date.parse(around) + 3_600_000; ms += 59_500) {
        const p = localParts(ms, zone);
        expect(csvLocalDateAndTime(ms, zone)).toEqual([`${p.year}-${p.month}-${p.day}`, `${p.hour}:${p.minute}:${p.second}`]);
      }
    }
  });
});
