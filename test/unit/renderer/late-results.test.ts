/** Late-result notices never cross environments: a sandbox result is not shown or announced in LIVE. */
import { describe, expect, it } from 'vitest';
import { announceLateResult, lateNoticeTitle, lateNoticeWho, noticesFor } from '../../../renderer/src/sale/late-results.js';
import type { PaymentView } from '../../../shared/ipc/contract.js';

const view = (id: string, environment: 'test' | 'live'): PaymentView => ({
  id,
  merchantRef: `TILL1.${id}`,
  environment,
  state: 'success',
  receiptNo: 'R-000001',
  amount: '12.00',
  fee: '0.23',
  net: '11.77',
  currency: 'GHS',
  msisdn: '233241234506',
  network: 'MTN',
  customerName: null,
  description: '',
  reference: `TX_${id}`,
  tillId: 'TILL1',
  startedBy: null,
  errorMessage: null,
  stoppedWaiting: true,
  settledByHand: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:05.000Z',
  completedAt: '2026-11-21T10:00:05.000Z',
});

describe('late-result notices by environment', () => {
  const notices = [view('a', 'test'), view('b', 'live'), view('c', 'test')];

  it('shows only the notices of the active environment, keeping the others for later', () => {
    expect(noticesFor(notices, 'live').map((p) => p.id)).toEqual(['b']);
    expect(noticesFor(notices, 'test').map((p) => p.id)).toEqual(['a', 'c']);
    expect(noticesFor(notices, undefined)).toEqual([]);
  });

  it('announces a late result only in its own environment', () => {
    expect(announceLateResult(view('a', 'test'), 'live')).toBe(false);
    expect(announceLateResult(view('b', 'live'), 'test')).toBe(false);
    expect(announceLateResult(view('a', 'test'), 'test')).toBe(true);
    expect(announceLateResult(view('b', 'live'), 'live')).toBe(true);
    expect(announceLateResult(view('b', 'live'), undefined)).toBe(false);
  });
});

describe('who a late-result notice names (issue 20 item 3)', () => {
  it('names who started the payment and who stopped waiting, never "you" to a manager or the owner', () => {
    expect(lateNoticeWho({ startedBy: 'Ama', stoppedBy: 'Ama' })).toBe('started by Ama, who stopped waiting');
    expect(lateNoticeWho({ startedBy: 'Ama', stoppedBy: 'Kofi' })).toBe('started by Ama; Kofi stopped waiting');
    expect(lateNoticeWho({ startedBy: 'Ama', stoppedBy: null })).toBe('started by Ama');
    expect(lateNoticeWho({ startedBy: null, stoppedBy: 'Efua' })).toBe('Efua stopped waiting');
  });

  it('says "you" only on a till without staff, where nobody is named', () => {
    expect(lateNoticeWho({ startedBy: null, stoppedBy: null })).toBe('you stopped waiting');
    expect(lateNoticeWho({ startedBy: null })).toBe('you stopped waiting');
  });
});

describe('a notice for a payment the till had open when it stopped', () => {
  it('says so first: the till stopped, nobody stopped waiting', () => {
    expect(lateNoticeWho({ startedBy: null, stoppedBy: null, leftOpen: true })).toBe('open when the till stopped');
    expect(lateNoticeWho({ startedBy: 'Ama', stoppedBy: null, leftOpen: true })).toBe('open when the till stopped; started by Ama');
    expect(lateNoticeWho({ startedBy: 'Ama', stoppedBy: 'Ama', leftOpen: true })).toBe(
      'open when the till stopped; started by Ama, who stopped waiting',
    );
  });

  it('names how its sending ended when no result came: no prompt, or one that may have gone out', () => {
    expect(lateNoticeTitle({ state: 'success' })).toBe('PAID');
    expect(lateNoticeTitle({ state: 'failed' })).toBe('NOT PAID');
    expect(lateNoticeTitle({ state: 'not_sent' })).toBe('NOT SENT (no prompt went out)');
    expect(lateNoticeTitle({ state: 'unconfirmed' })).toMatch(/^NO ANSWER \(it may have reached the payment service/);
  });
});
