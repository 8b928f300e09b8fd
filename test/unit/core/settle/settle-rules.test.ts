/** Settle-by-hand rules at their limits, for mutation testing: the note's length, a fee typed with spaces. */
import { describe, expect, it } from 'vitest';
import { checkSettlement, type SettleRequest } from '../../../../electron/core/settle/settle-rules.js';
import { HAND_NOTE_MAX } from '../../../../shared/domain.js';

const paid = (overrides: Partial<SettleRequest> = {}) =>
  ({ outcome: 'paid', reference: 'TX_0001', note: 'Seen on the dashboard', ...overrides }) as SettleRequest;

describe('checkSettlement', () => {
  it(`takes a note of ${HAND_NOTE_MAX} characters and refuses ${HAND_NOTE_MAX + 1}`, () => {
    expect(checkSettlement(paid({ note: 'n'.repeat(HAND_NOTE_MAX) }), 1000)).toEqual({
      outcome: 'paid',
      reference: 'TX_0001',
      fee: null,
      note: 'n'.repeat(200),
    });
    expect(checkSettlement(paid({ note: 'n'.repeat(HAND_NOTE_MAX + 1) }), 1000)).toEqual({
      ok: false,
      field: 'note',
      message: 'A note is at most 200 characters (this one is 201).',
    });
  });

  it('reads a fee typed with spaces around it, and a blank fee as none', () => {
    expect(checkSettlement(paid({ fee: ' 0.24 ' }), 1000)).toMatchObject({ fee: 24, reference: 'TX_0001' });
    expect(checkSettlement(paid({ outcome: 'not_paid', reference: undefined, fee: '   ' }), 1000)).toMatchObject({
      fee: null,
      reference: null,
    });
  });
});
