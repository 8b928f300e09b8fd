/** The X report reads since the last close: after midnight it never passes for "today", and says when it spans days. */
import { describe, expect, it } from 'vitest';
import { X_REPORT_TITLE, xSpanNote } from '../../../renderer/src/day/x-span.js';

describe('the X report across midnight', () => {
  it('is titled by what it reads, not "today"', () => {
    expect(X_REPORT_TITLE).toBe('X report (since the last close)');
    expect(X_REPORT_TITLE).not.toMatch(/today/);
  });

  it('says so when it spans two calendar days of the shop, and nothing within one day or for a Z', () => {
    const x = { kind: 'x' as const, openedAt: '2026-11-26T20:00:00.000Z', at: '2026-11-27T00:05:00.000Z' };
    expect(xSpanNote(x, 'Africa/Accra')).toBe(
      'This X report spans more than one day, 26/11/2026 to 27/11/2026: the day has not been closed since. Close the day to start the next report from zero.',
    );
    expect(xSpanNote({ ...x, at: '2026-11-26T23:59:00.000Z' }, 'Africa/Accra')).toBeNull();
    expect(xSpanNote({ ...x, kind: 'z' }, 'Africa/Accra')).toBeNull();
    expect(xSpanNote({ ...x, openedAt: null }, 'Africa/Accra')).toBeNull();
  });
});
