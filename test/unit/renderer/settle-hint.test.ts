/** A pending payment's detail says when it can be settled by hand ("in 9 minutes"), not nothing. */
import { describe, expect, it } from 'vitest';
import { settleHintText } from '../../../renderer/src/history/settle-hint.js';

const started = Date.parse('2026-11-21T10:00:00.000Z');
const pending = { state: 'awaiting_customer' as const, createdAt: new Date(started).toISOString(), settledByHand: null };

describe('the settle-by-hand hint of a pending payment', () => {
  it('six minutes in: "in 9 minutes", with the time it opens, in the till\'s time zone', () => {
    expect(settleHintText(pending, started + 6 * 60_000, 'yes', 'Africa/Accra')).toBe(
      'Waiting for its result. If none comes, it can be settled by hand in 9 minutes (at 10:15).',
    );
  });

  it('a cashier is told who can settle it; the last minute is "1 minute", never 0', () => {
    expect(settleHintText(pending, started + 14 * 60_000 + 59_000, 'no', 'Africa/Accra')).toBe(
      'Waiting for its result. If none comes, a manager or the owner can settle it by hand in 1 minute (at 10:15).',
    );
  });

  it('nothing once there is a result, once it is overdue, or once it was settled by hand', () => {
    expect(settleHintText({ ...pending, state: 'success' }, started, 'yes', 'Africa/Accra')).toBeNull();
    expect(settleHintText({ ...pending, overdue: true as const }, started + 16 * 60_000, 'yes', 'Africa/Accra')).toBeNull();
    const hand = { outcome: 'paid' as const, reference: null, fee: null, note: '', by: 'Efua', at: pending.createdAt, check: null };
    expect(settleHintText({ ...pending, settledByHand: hand }, started, 'yes', 'Africa/Accra')).toBeNull();
  });

  it('an unconfirmed payment (it may have reached the service) says so and when; a not_sent one has nothing to wait for', () => {
    const unconfirmed = { ...pending, state: 'unconfirmed' as const };
    expect(settleHintText(unconfirmed, started + 6 * 60_000, 'no', 'Africa/Accra')).toBe(
      'It may have reached the payment service: its result lands here if it did. If none comes, a manager or the owner can settle it by hand in 9 minutes (at 10:15).',
    );
    expect(settleHintText({ ...pending, state: 'not_sent' }, started + 6 * 60_000, 'yes', 'Africa/Accra')).toBeNull();
  });
});
