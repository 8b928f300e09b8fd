/** History lists a payment by its start day, Takings by the day its result arrived: across midnight, the row says both. */
import { describe, expect, it } from 'vitest';
import { completedOtherDay } from '../../../renderer/src/history/history-table.js';

describe('a History row across midnight', () => {
  it('says the day it completed (the day Takings counts it) only when that is not the day it started', () => {
    const started = '2026-11-26T23:59:30.000Z';
    expect(completedOtherDay({ createdAt: started, completedAt: '2026-11-27T00:00:20.000Z' }, 'Africa/Accra')).toBe(
      'completed 27/11/2026 00:00',
    );
    expect(completedOtherDay({ createdAt: started, completedAt: '2026-11-26T23:59:50.000Z' }, 'Africa/Accra')).toBeNull();
    expect(completedOtherDay({ createdAt: started, completedAt: null }, 'Africa/Accra')).toBeNull();
    // The till's day, not UTC's: 23:59:30 UTC is already the 27th in Nairobi.
    expect(completedOtherDay({ createdAt: started, completedAt: '2026-11-27T00:00:20.000Z' }, 'Africa/Nairobi')).toBeNull();
  });
});
