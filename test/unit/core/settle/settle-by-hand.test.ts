/**
 * Settle by hand on a real SQLite file: the refusals (nothing changes), the payment, transaction row,
 * rollup and audit entry it writes, and the service's late result through the engine's own path
 * (agreeing: confirmed; disagreeing: the service wins and the owner is alerted; twice: nothing more).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Alerts } from '../../../../electron/core/alerts/alerts.js';
import type { AuditLog } from '../../../../electron/core/people/audit-log.js';
import type { Db } from '../../../../electron/core/storage/database.js';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import type { PaymentEngine } from '../../../../electron/core/payments/payment-engine.js';
import type { PaymentRow, PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { settleByHand, type SettleDeps } from '../../../../electron/core/settle/settle-by-hand.js';
import type { SettleRequest } from '../../../../electron/core/settle/settle-rules.js';
import { Takings } from '../../../../electron/core/takings/takings.js';
import type { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { openOfflineEngine, type OfflineEngine } from '../../../support/offline-engine.js';

const T0 = Date.parse('2026-11-22T10:00:00Z');
const DAY = '2026-11-22';
const MANAGER = { id: 'st-mary', name: 'Mary' };
let now: number;
let db: Db;
let till: OfflineEngine;
let repo: PaymentsRepo;
let transactions: TransactionsStore;
let audit: AuditLog;
let alerts: Alerts;
let alertCounts: number[];
let engine: PaymentEngine;
let deps: SettleDeps;

beforeEach(() => {
  now = T0 + OVERDUE_AFTER_MS + 60_000;
  alertCounts = [];
  till = openOfflineEngine({
    prefix: 'momo-settle-',
    tillId: 'T1',
    timeZone: 'Africa/Accra',
    clock: () => now,
    onAlerts: (open) => alertCounts.push(open),
  });
  ({ db, repo, transactions, audit, alerts, engine, settleDeps: deps } = till);
  // GH₵12.50 started by Kofi at T0, the service's answer gave it TX_AAAA1; no result since.
  repo.insert(
    paymentRow('p1', {
      state: 'awaiting_customer',
      amount: 1250,
      reference: 'TX_AAAA1',
      merchant_ref: 'T1.01JD0000000000000000000001',
      staff_id: 'st-kofi',
      staff_name: 'Kofi',
      created_at: T0,
      updated_at: T0,
    }),
  );
});
afterEach(() => till.close());

const settle = (request: Partial<SettleRequest>, env: 'test' | 'live' = 'test') =>
  settleByHand(deps, env, { id: 'p1', outcome: 'not_paid', note: 'Checked the dashboard: no money', ...request }, MANAGER).answer;
const payment = () => repo.get('p1') as PaymentRow;
const rows = () => db.prepare('SELECT reference, status, fee, net, settled_by_hand FROM transactions ORDER BY reference').all();
const rollup = () => db.prepare('SELECT network, succeeded, failed, gross, fees, net FROM daily_takings').all();
const report = () => new Takings(db, () => now).report('test', DAY, DAY, 'Africa/Accra').totals;
const byHand = () => new Takings(db, () => now).report('test', DAY, DAY, 'Africa/Accra').byHand;
const csvLine = () => new Takings(db, () => now).exportCsv('test', DAY, DAY).csv.trim().split('\r\n')[1];
const audits = () => audit.list({ action: 'settle_by_hand' });
const setState = (state: 'not_sent' | 'unconfirmed') => db.prepare('UPDATE payments SET state = ?, reference = NULL').run(state);

/** A Z report counted every transaction so far (as electron/core/day-close.ts does). */
function closeTheDay(): void {
  db.prepare("INSERT INTO z_reports (id, environment, number, closed_at, report, lines) VALUES (1, 'test', 1, ?, '{}', '[]')").run(now);
  db.prepare('UPDATE transactions SET z_report_id = 1 WHERE z_report_id IS NULL').run();
}

/** The service's result as the relay brings it (a sandbox delivery replayed from the dashboard). */
function result(status: 'SUCCESS' | 'FAILED', reference = 'TX_AAAA1', fee = status === 'SUCCESS' ? '0.24' : '0.00'): WireTransaction {
  const net = status === 'SUCCESS' ? ((1250 - Math.round(Number(fee) * 100)) / 100).toFixed(2) : '0.00';
  return {
    reference,
    clientReference: 'T1.01JD0000000000000000000001',
    status,
    amount: '12.50',
    fee,
    net,
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: 'SANDBOX' },
    description: '',
    metadata: { till: 'T1', cashierId: 'st-kofi', cashier: 'Kofi' },
    completedAt: '2026-11-22T10:01:00.000Z',
    sandbox: true,
  } as WireTransaction;
}

describe('refusals: a clear message, and nothing changes', () => {
  const cases: Array<[string, () => void, Partial<SettleRequest>, RegExp, string?]> = [
    ['not overdue yet', () => (now = T0 + 5 * 60_000), {}, /Only an overdue payment.*Wait 10 more minutes/],
    ['another environment', () => {}, {}, /taken in TEST; switch to it/],
    ['another till', () => db.prepare("UPDATE payments SET till_id = 'T2'").run(), {}, /another till/],
    ['a final payment', () => db.prepare("UPDATE payments SET state = 'success'").run(), {}, /already has the service's result \(PAID\)/],
    ['a rejected payment', () => db.prepare("UPDATE payments SET state = 'rejected'").run(), {}, /refused this payment.*nothing to settle/],
    [
      'never sent, even as paid',
      () => setState('not_sent'),
      { outcome: 'paid', reference: 'TX_AAAA1' },
      /never reached the .*nothing to settle/,
    ],
    [
      'an unconfirmed payment before its result could have come',
      () => (setState('unconfirmed'), (now = T0 + 5 * 60_000)),
      {},
      /Only an overdue payment.*Wait 10 more minutes/,
    ],
    ['paid without a reference', () => {}, { outcome: 'paid' }, /Type the service reference/, 'reference'],
    ['a reference of the wrong shape', () => {}, { outcome: 'paid', reference: 'TX 1' }, /4–128 letters/, 'reference'],
    [
      'a reference not the payment’s',
      () => {},
      { outcome: 'paid', reference: 'TX_BBBB2' },
      /gave this payment the reference TX_AAAA1/,
      'reference',
    ],
    ['a reference for not paid', () => {}, { reference: 'TX_AAAA1' }, /has no service reference/, 'reference'],
    ['a fee for not paid', () => {}, { fee: '0.10' }, /has no fee/, 'fee'],
    ['a fee that is not money', () => {}, { outcome: 'paid', reference: 'TX_AAAA1', fee: '1.234' }, /Fee: Two digits at most/, 'fee'],
    [
      'a fee as large as the payment',
      () => {},
      { outcome: 'paid', reference: 'TX_AAAA1', fee: '12.50' },
      /less than the payment's GH₵12.50/,
      'fee',
    ],
    ['a blank note', () => {}, { note: '   ' }, /Write a note/, 'note'],
    ['a note over 200 characters', () => {}, { note: 'x'.repeat(201) }, /at most 200 characters \(this one is 201\)/, 'note'],
  ];
  for (const [name, arrange, request, message, field] of cases) {
    it(name, () => {
      arrange();
      const before = payment();
      const answer = settle(request, name === 'another environment' ? 'live' : 'test');
      expect(answer).toMatchObject({ ok: false, message: expect.stringMatching(message) });
      if (field) expect(answer).toMatchObject({ field });
      expect(payment()).toEqual(before);
      expect(rows()).toEqual([]);
      expect(audits()).toEqual([]);
    });
  }

  it('an unknown payment, and one already settled by hand', () => {
    expect(settleByHand(deps, 'test', { id: 'nope', outcome: 'not_paid', note: 'n' }, MANAGER).answer).toMatchObject({
      message: 'There is no such payment on this till.',
    });
    expect(settle({})).toMatchObject({ ok: true });
    expect(settle({})).toMatchObject({ ok: false, message: 'This payment was already settled by hand.' });
    expect(rows()).toHaveLength(1);
  });

  it('a paid reference that already belongs to another transaction', () => {
    repo.update('p1', { reference: null }, now); // an uncertain payment: the service's answer never came
    transactions.insert('test', { ...result('SUCCESS', 'TX_OTHER9'), clientReference: 'T1.other' }, 1, now);
    expect(settle({ outcome: 'paid', reference: 'TX_OTHER9' })).toMatchObject({
      ok: false,
      field: 'reference',
      message: expect.stringMatching(/already belongs/),
    });
    expect(payment().state).toBe('awaiting_customer');
  });
});

describe('settling an unconfirmed payment (it may have reached the service)', () => {
  it('once overdue, paid with the reference the dashboard shows: PAID by hand, counted, no longer unconfirmed', () => {
    setState('unconfirmed');
    expect(settle({ outcome: 'paid', reference: 'TX_DASH7', note: 'Dashboard shows it approved' })).toMatchObject({ ok: true });
    expect(payment()).toMatchObject({ state: 'success', hand_outcome: 'paid', hand_reference: 'TX_DASH7' });
    expect(report()).toMatchObject({ succeeded: 1, gross: '12.50' });
    expect(new Takings(db, () => now).report('test', DAY, DAY, 'Africa/Accra').unsent.unconfirmed.count).toBe(0);
  });
});

describe('settling', () => {
  it('paid with a fee: the payment is PAID, a transaction counted by takings is marked settled by hand, and it is audited', () => {
    const answer = settle({ outcome: 'paid', reference: ' TX_AAAA1 ', fee: '0.25', note: '  Seen on the dashboard  ' });
    expect(answer).toMatchObject({
      ok: true,
      payment: {
        state: 'success',
        fee: '0.25',
        net: '12.25',
        settledByHand: { outcome: 'paid', reference: 'TX_AAAA1', fee: '0.25', note: 'Seen on the dashboard', by: 'Mary', check: null },
      },
    });
    expect(rows()).toEqual([{ reference: 'TX_AAAA1', status: 'SUCCESS', fee: 25, net: 1225, settled_by_hand: 1 }]);
    expect(report()).toMatchObject({ succeeded: 1, failed: 0, gross: '12.50', fees: '0.25', net: '12.25' });
    expect(rollup()).toEqual([{ network: 'MTN', succeeded: 1, failed: 0, gross: 1250, fees: 25, net: 1225 }]);
    expect(byHand()).toMatchObject({ count: 1, succeeded: 1, gross: '12.50' });
    expect(csvLine()).toMatch(/,TX_AAAA1,.*,SUCCESS,12\.50,0\.25,12\.25,.*,Kofi,yes$/);
    expect(audits()).toMatchObject([
      { actorName: 'Mary', detail: 'payment p1 (GH₵12.50): paid, reference TX_AAAA1, fee GH₵0.25; note: Seen on the dashboard' },
    ]);
  });

  it('paid without a fee counts 0.00 and says so', () => {
    expect(settle({ outcome: 'paid', reference: 'TX_AAAA1' })).toMatchObject({ payment: { fee: '0.00', settledByHand: { fee: null } } });
    expect(audits()[0]?.detail).toMatch(/fee not given \(0\.00 counted\)/);
  });

  it('not paid: NOT PAID, counted as a failure under a reference the service can never send', () => {
    expect(settle({})).toMatchObject({
      ok: true,
      payment: { state: 'failed', reference: 'TX_AAAA1', settledByHand: { outcome: 'not_paid' } },
    });
    expect(rows()).toEqual([{ reference: 'NOT-PAID#T1.01JD0000000000000000000001', status: 'FAILED', fee: 0, net: 0, settled_by_hand: 1 }]);
    expect(report()).toMatchObject({ succeeded: 0, failed: 1, gross: '0.00' });
  });
});

describe("the service's late result", () => {
  it('agreeing, paid with the same reference: confirmed, the service fee replaces the hand one; a second delivery changes nothing', () => {
    settle({ outcome: 'paid', reference: 'TX_AAAA1' });
    closeTheDay();
    engine.applyTransaction('test', result('SUCCESS'), 7);
    expect(db.prepare('SELECT z_report_id FROM transactions').get()).toEqual({ z_report_id: 1 }); // still the Z that counted it
    expect(payment()).toMatchObject({ state: 'success', fee: 24, net: 1226, hand_check: 'confirmed', hand_fee: null });
    expect(rows()).toEqual([{ reference: 'TX_AAAA1', status: 'SUCCESS', fee: 24, net: 1226, settled_by_hand: 1 }]);
    expect(report()).toMatchObject({ succeeded: 1, fees: '0.24', net: '12.26' });
    expect(byHand()).toMatchObject({ count: 1, fees: '0.24' });
    expect(csvLine()).toMatch(/,confirmed$/);
    const after = { payment: payment(), rows: rows(), rollup: rollup() };
    now += 60_000;
    engine.applyTransaction('test', result('SUCCESS'), 8);
    expect({ payment: payment(), rows: rows(), rollup: rollup() }).toEqual(after);
    expect(alerts.list()).toEqual([]);
  });

  it('agreeing, not paid: confirmed, and the one failure now carries the service reference', () => {
    settle({});
    engine.applyTransaction('test', result('FAILED'), 7);
    expect(payment()).toMatchObject({ state: 'failed', hand_check: 'confirmed' });
    expect(rows()).toEqual([{ reference: 'TX_AAAA1', status: 'FAILED', fee: 0, net: 0, settled_by_hand: 1 }]);
    expect(report()).toMatchObject({ count: 1, failed: 1 });
    expect(alerts.list()).toEqual([]);
  });

  it('disagreeing (not paid by hand, PAID by the service): the service wins everywhere and the owner is alerted once', () => {
    settle({});
    closeTheDay(); // the Z that counted the hand's NOT PAID
    engine.applyTransaction('test', result('SUCCESS'), 7);
    expect(db.prepare('SELECT z_report_id FROM transactions').get()).toEqual({ z_report_id: null }); // the next Z counts it
    expect(payment()).toMatchObject({
      state: 'success',
      fee: 24,
      net: 1226,
      hand_check: 'overridden',
      hand_outcome: 'not_paid',
      hand_by_name: 'Mary',
      completed_at: Date.parse('2026-11-22T10:01:00.000Z'),
    });
    expect(rows()).toEqual([{ reference: 'TX_AAAA1', status: 'SUCCESS', fee: 24, net: 1226, settled_by_hand: 0 }]);
    expect(report()).toMatchObject({ count: 1, succeeded: 1, failed: 0, gross: '12.50', net: '12.26' });
    expect(rollup()).toEqual([{ network: 'MTN', succeeded: 1, failed: 0, gross: 1250, fees: 24, net: 1226 }]);
    expect(byHand()).toMatchObject({ count: 0 });
    expect(csvLine()).toMatch(/,TX_AAAA1,.*,SUCCESS,12\.50,0\.24,12\.26,.*,overridden$/);
    const [alert] = alerts.list();
    expect(alert?.message).toBe(
      "GH₵12.50 from 024 123 4567 was settled by hand as NOT PAID by Mary, but the service's result says PAID (reference TX_AAAA1). The service's result now counts in takings.",
    );
    expect(alertCounts).toEqual([1]);
    const after = { payment: payment(), rows: rows(), rollup: rollup() };
    engine.applyTransaction('test', result('SUCCESS'), 8);
    expect({ payment: payment(), rows: rows(), rollup: rollup(), alerts: alerts.list().length }).toEqual({ ...after, alerts: 1 });
    // It stays until the owner acknowledges it; acknowledging twice is harmless.
    expect(alerts.acknowledge(alert!.id, { id: 'owner', name: 'Ama' })).toMatchObject({ first: true, alert: { acknowledgedBy: 'Ama' } });
    expect(alerts.acknowledge(alert!.id, { id: 'owner', name: 'Ama' }).first).toBe(false);
    expect(alerts.list()).toEqual([]);
    expect(alerts.list(true)).toHaveLength(1);
    expect(() => alerts.acknowledge(999, { id: 'owner', name: 'Ama' })).toThrow('There is no such alert.');
    expect(alertCounts).toEqual([1, 0]);
  });

  it('disagreeing (paid by hand, NOT PAID by the service): takings lose the hand figures', () => {
    settle({ outcome: 'paid', reference: 'TX_AAAA1', fee: '0.25' });
    engine.applyTransaction('test', result('FAILED'), 7);
    expect(payment()).toMatchObject({ state: 'failed', fee: 0, net: 0, hand_check: 'overridden', hand_fee: 25 });
    expect(report()).toMatchObject({ succeeded: 0, failed: 1, gross: '0.00', fees: '0.00' });
    expect(alerts.list()[0]?.message).toMatch(/as PAID \(reference TX_AAAA1\).*says NOT PAID/);
  });

  it('disagreeing on the reference: the service’s reference and figures win', () => {
    repo.update('p1', { reference: null, state: 'uncertain' }, now);
    settle({ outcome: 'paid', reference: 'TX_TYPO77' });
    engine.applyTransaction('test', result('SUCCESS', 'TX_REAL88'), 7);
    expect(payment()).toMatchObject({ state: 'success', reference: 'TX_REAL88', hand_reference: 'TX_TYPO77', hand_check: 'overridden' });
    expect(rows()).toEqual([{ reference: 'TX_REAL88', status: 'SUCCESS', fee: 24, net: 1226, settled_by_hand: 0 }]);
    expect(report()).toMatchObject({ count: 1, succeeded: 1 });
  });
});
