/**
 * After Stop waiting, an update for that payment that overtakes the stop's reply (its own echo, or a poll
 * answered just after) must not reopen the Waiting screen over the next sale.
 */
import { describe, expect, it } from 'vitest';
import { belongsOnWaitingScreen } from '../../../renderer/src/sale/followed.js';
import type { PaymentView } from '../../../shared/ipc/contract.js';

const update = (id: string, stoppedWaiting: boolean): PaymentView => ({
  id,
  merchantRef: `TILL1.${id}`,
  environment: 'test',
  state: 'awaiting_customer',
  receiptNo: null,
  amount: '10.00',
  fee: null,
  net: null,
  currency: 'GHS',
  msisdn: '233245551006',
  network: 'MTN',
  customerName: null,
  description: '',
  reference: `TX_${id}`,
  tillId: 'TILL1',
  startedBy: 'Ama',
  errorMessage: null,
  stoppedWaiting,
  settledByHand: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:01.000Z',
  completedAt: null,
});

describe('which updates the Waiting screen shows', () => {
  it('shows updates of the payment being waited for', () => {
    expect(belongsOnWaitingScreen(update('p1', false), null)).toBe(true);
    expect(belongsOnWaitingScreen(update('p2', false), 'p1')).toBe(true);
  });

  it('drops an update of the payment the cashier stopped waiting for, even one sent before the stop', () => {
    expect(belongsOnWaitingScreen(update('p1', false), 'p1')).toBe(false);
  });

  it("drops the stop's own echo (marked stopped waiting)", () => {
    expect(belongsOnWaitingScreen(update('p1', true), null)).toBe(false);
  });
});
