/**
 * Day close with settle by hand, through the engine's own result path on a real SQLite file: a Z marks
 * what was settled by hand, and when the service's late result disagrees with a hand settlement an
 * earlier Z counted, the next Z counts the service's result and a correction takes the hand figures out.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../electron/core/storage/database.js';
import { DayClose } from '../../../../electron/core/day/day-close.js';
import { Takings } from '../../../../electron/core/takings/takings.js';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import type { PaymentEngine } from '../../../../electron/core/payments/payment-engine.js';
import { settleByHand } from '../../../../electron/core/settle/settle-by-hand.js';
import type { SettleRequest } from '../../../../electron/core/settle/settle-rules.js';
import { dayResult, merchantRef } from '../../../support/day-rows.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { openOfflineEngine, type OfflineEngine } from '../../../support/offline-engine.js';
import { buildDayReportDocument } from '../../../../shared/receipt/build-day-report.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';
import { correctedSinceOf, type DayReport } from '../../../../shared/ipc/contract.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T10:00:00Z');
const REF = merchantRef('TFRONT1', 'P1');
let now: number;
let db: Db;
let till: OfflineEngine;
let engine: PaymentEngine;
let day: DayClose;
let settle: (request: Partial<SettleRequest>) => void;

beforeEach(() => {
  now = T0 + OVERDUE_AFTER_MS + 60_000;
  const clock = () => now;
  till = openOfflineEngine({ prefix: 'momo-day-hand-', tillId: 'TFRONT1', timeZone: TZ, clock });
  ({ db, engine } = till);
  const { repo, settleDeps: deps } = till;
  day = new DayClose(db, clock, () => ({ id: 'TFRONT1', name: 'Front counter' }));
  settle = (request) => {
    const { answer } = settleByHand(
      deps,
      'test',
      { id: 'p1', outcome: 'not_paid', note: 'Seen on the dashboard', ...request },
      { id: 'm', name: 'Mary' },
    );
    expect(answer.ok).toBe(true);
  };
  // GH₵12.50 started by Kofi at T0 on this till; its result never came (overdue).
  repo.insert(
    paymentRow('p1', {
      state: 'awaiting_customer',
      amount: 1250,
      merchant_ref: REF,
      till_id: 'TFRONT1',
      staff_id: 'kofi',
      staff_name: 'Kofi',
      created_at: T0,
      updated_at: T0,
    }),
  );
});
afterEach(() => till.close());

/** The service's own result for p1, late (a delivery replayed from the dashboard). */
const late = (status: 'SUCCESS' | 'FAILED') =>
  engine.applyTransaction(
    'test',
    dayResult('TX_SERVICE1', {
      merchantRef: REF,
      status,
      cashier: ['kofi', 'Kofi'],
      amount: '12.50',
      fee: '0.24',
      net: '12.26',
      completedAt: new Date(now).toISOString(),
    }),
    null,
  );
/** The report as printed: every row and line of text, as a shop owner reads the paper. */
const paper = (report: DayReport) =>
  buildDayReportDocument(report, DEFAULT_RECEIPT_SETTINGS, 'Front counter').blocks.flatMap((b) =>
    b.kind === 'row' ? [`${b.label} | ${b.value}`] : b.kind === 'text' ? [b.text] : [],
  );
/** No count a report states, in its totals or any breakdown, is below zero. */
const noNegativeCount = (report: DayReport) => {
  for (const t of [report.totals, ...report.byCashier, ...report.byTill, ...report.byNetwork]) {
    expect(Math.min(t.count, t.succeeded, t.failed)).toBeGreaterThanOrEqual(0);
  }
  expect(paper(report).filter((line) => /(^|\s)-\d+ (paid|failed)|\| -\d+$/.test(line))).toEqual([]);
};
const closeDay = () => {
  now += 60_000;
  return day.close('test', TZ, day.last('test')?.number ?? 0, null);
};

describe('a Z and settle by hand', () => {
  it('counts and marks what was settled by hand, with the note as the reason, in the report and its CSV', () => {
    settle({ note: 'No money on the dashboard' });
    const { id, report } = closeDay();
    expect(report.settledByHand).toBe(1);
    expect(report.failures).toEqual([
      expect.objectContaining({ settledByHand: true, reason: 'Settled by hand: No money on the dashboard', cashier: 'Kofi' }),
    ]);
    const csv = day.exportCsv('test', id).csv.split('\r\n');
    expect(csv[0]).toMatch(/,settled_by_hand,receipt_no,counted_in_totals,local_date,local_time$/);
    // settled by hand, no receipt number (NOT PAID), counted, then its local date and time
    expect(csv[1]).toMatch(/,FAILED,12\.50,0\.00,0\.00,.*,yes,,yes,\d{4}-\d\d-\d\d,\d\d:\d\d:\d\d$/);
  });

  it('a payment of a closed day settled by hand after that close: the next Z freezes it as arrived after close', () => {
    const first = closeDay(); // p1 still awaiting: listed, not counted
    expect(first.report.awaiting.map((a) => a.status)).toEqual(['overdue']);
    settle({ note: 'Seen on the dashboard' });
    const second = closeDay();
    expect(second.report.arrivedAfterClose).toEqual([
      expect.objectContaining({ merchantRef: REF, closedDay: 'Z-0001', settledByHand: true }),
    ]);
    expect(db.prepare('SELECT late, line IS NOT NULL AS frozen FROM z_report_rows WHERE z_report_id = ?').all(second.id)).toEqual([
      { late: 1, frozen: 1 },
    ]);
    const csv = day.exportCsv('test', second.id).csv.split('\r\n');
    expect(csv[1]).toMatch(/,FAILED,12\.50,0\.00,0\.00,,yes,yes,,yes,\d{4}-\d\d-\d\d,\d\d:\d\d:\d\d$/);
  });

  it('a payment started at a close and settled by hand before the next: that Z freezes it as not arrived after close', () => {
    closeDay(); // p1 still awaiting
    settle({});
    const first = closeDay(); // Z-0002 counts p1 (arrived after Z-0001's close)
    const startedAt = Date.parse(first.report.at); // p2 starts the very ms Z-0002 closed: in the next day
    till.repo.insert(
      paymentRow('p2', {
        state: 'awaiting_customer',
        amount: 300,
        merchant_ref: merchantRef('TFRONT1', 'P2'),
        till_id: 'TFRONT1',
        created_at: startedAt,
        updated_at: startedAt,
      }),
    );
    now = startedAt + OVERDUE_AFTER_MS + 1;
    settle({ id: 'p2' });
    const second = closeDay();
    expect(second.report.arrivedAfterClose).toEqual([]);
    expect(db.prepare('SELECT late, line IS NOT NULL AS frozen FROM z_report_rows WHERE z_report_id = ?').all(second.id)).toEqual([
      { late: 0, frozen: 1 },
    ]);
    const csv = day.exportCsv('test', second.id).csv.split('\r\n');
    expect(csv[1]).toMatch(/,FAILED,3\.00,0\.00,0\.00,,,yes,,yes,\d{4}-\d\d-\d\d,\d\d:\d\d:\d\d$/);
  });

  it('a hand PAID counted in Z-0001 that the service says FAILED: Z-0002 counts the failure and takes the hand figures back out', () => {
    settle({ outcome: 'paid', reference: 'TX_SERVICE1', fee: '0.25' });
    const first = closeDay();
    expect(first.report.totals).toEqual({ count: 1, succeeded: 1, failed: 0, gross: '12.50', fees: '0.25', net: '12.25' });
    now += 60_000;
    late('FAILED');
    const x = day.xReport('test', TZ);
    expect(x.corrections).toEqual([
      {
        merchantRef: REF,
        msisdn: '024 123 4567',
        amount: '12.50',
        hand: 'PAID',
        handBy: 'Mary',
        countedIn: 'Z-0001',
        service: 'FAILED',
        gross: '-12.50',
        fees: '-0.25',
        net: '-12.25',
      },
    ]);
    const second = closeDay();
    expect(second.report.corrections).toEqual(x.corrections);
    // The service's failure counted as this Z's payment; the hand's money taken out, never a count below zero:
    // the correction is stated in words instead.
    expect(second.report.totals).toEqual({ count: 1, succeeded: 0, failed: 1, gross: '-12.50', fees: '-0.25', net: '-12.25' });
    expect(second.report.byCashier).toEqual([expect.objectContaining({ cashier: 'Kofi', count: 1, succeeded: 0, gross: '-12.50' })]);
    noNegativeCount(second.report);
    expect(correctedSinceOf(second.report).map((c) => c.text)).toEqual(['Corrected since Z-0001: 1 payment PAID → FAILED, −GH₵12.50']);
    expect(paper(second.report)).toContain('Corrected since Z-0001: 1 payment PAID → FAILED, −GH₵12.50');
    expect(second.report.settledByHand).toBe(0);
    expect(day.view('test', first.id).report).toEqual(first.report); // Z-0001 never changes
    const csv = day.exportCsv('test', second.id).csv;
    expect(csv).toMatch(/,CORRECTION,-12\.50,-0\.25,-12\.25,/); // negative figures stay numbers (no leading ')
    expect(csv).toContain('\r\ntill,Front counter,1,0,1,-12.50,-0.25,-12.25\r\n');
    expect(csv).toContain('\r\ncorrected,Corrected since Z-0001: 1 payment PAID → FAILED,1,,,-12.50,,\r\n');
    expect(day.xReport('test', TZ).corrections).toEqual([]); // made once
  });

  it('a hand NOT PAID counted in Z-0001 that the service says PAID: Z-0002 counts the payment and takes the failure out', () => {
    settle({});
    closeDay();
    late('SUCCESS');
    const { report } = closeDay();
    // Z-0002 read "Paid / payments 1 / 0" and printed "1 paid, -1 failed": the payment is this Z's one paid, and
    // the change from the failure Z-0001 counted is said in words.
    expect(report.totals).toEqual({ count: 1, succeeded: 1, failed: 0, gross: '12.50', fees: '0.24', net: '12.26' });
    expect(report.corrections).toEqual([
      expect.objectContaining({ hand: 'NOT PAID', service: 'SUCCESS', gross: '0.00', countedIn: 'Z-0001' }),
    ]);
    noNegativeCount(report);
    expect(paper(report)).toContain('1 paid, 0 failed | GH₵12.50 / net GH₵12.26');
    expect(paper(report)).toContain('Corrected since Z-0001: 1 payment FAILED → PAID, +GH₵12.50');
  });

  it("names this till in Takings' By till when its only result is a hand settlement the service corrected", () => {
    settle({});
    late('SUCCESS'); // the service's result, as a result of an older till would: its metadata names no till
    const takings = new Takings(
      db,
      () => now,
      () => ({ id: 'TFRONT1', name: 'Front counter' }),
    );
    const day = new Date(now).toISOString().slice(0, 10);
    expect(takings.report('test', day, day, TZ).byTill).toEqual([
      expect.objectContaining({ tillId: 'TFRONT1', tillName: 'Front counter', succeeded: 1, gross: '12.50' }),
    ]);
  });

  it('no correction when the service answered before any close counted the hand settlement', () => {
    settle({});
    late('SUCCESS');
    expect(closeDay().report).toMatchObject({ totals: { count: 1, succeeded: 1, gross: '12.50' }, corrections: [], settledByHand: 0 });
  });

  it('the service agreed with a hand PAID but charged a fee the hand did not count: Z-0002 adjusts the fee, once', () => {
    settle({ outcome: 'paid', reference: 'TX_SERVICE1' }); // no fee typed: 0.00 counted
    const first = closeDay();
    expect(first.report).toMatchObject({ settledByHand: 1, totals: { fees: '0.00', net: '12.50' } });
    late('SUCCESS'); // fee 0.24
    const second = closeDay();
    expect(second.report.totals).toEqual({ count: 0, succeeded: 0, failed: 0, gross: '0.00', fees: '0.24', net: '-0.24' });
    expect(correctedSinceOf(second.report).map((c) => c.text)).toEqual(['Corrected since Z-0001: the fee of 1 payment, −GH₵0.24 net']);
    expect(second.report.corrections).toEqual([
      expect.objectContaining({ hand: 'PAID', service: 'SUCCESS', countedIn: 'Z-0001', gross: '0.00', fees: '0.24', net: '-0.24' }),
    ]);
    // Its CSV: the counted figures taken out (CORRECTION), the service's counted anew (RECOUNT), both counted.
    const rows = day.exportCsv('test', second.id).csv.split('\r\n');
    expect(rows.filter((r) => r.includes(',TX_SERVICE1,'))).toEqual([
      expect.stringMatching(/,CORRECTION,-12\.50,0\.00,-12\.50,.*,yes,R-\d{6},yes,2026-11-22,\d\d:\d\d:\d\d$/),
      expect.stringMatching(/,RECOUNT,12\.50,0\.24,12\.26,.*,yes,R-\d{6},yes,2026-11-22,\d\d:\d\d:\d\d$/),
    ]);
    // Neither line arrived after a close (column 12, arrived_after_close, is empty).
    expect(rows.filter((r) => r.includes(',TX_SERVICE1,')).map((r) => r.split(',')[12])).toEqual(['', '']);
    // Z-0001's CSV still shows the hand's figures it counted (frozen at its close), not the service's that replaced them.
    const firstRows = day.exportCsv('test', first.id).csv.split('\r\n');
    expect(firstRows.filter((r) => r.includes(',TX_SERVICE1,'))).toEqual([expect.stringMatching(/,SUCCESS,12\.50,0\.00,12\.50,/)]);
    expect(closeDay().report).toMatchObject({ totals: { count: 0, fees: '0.00' }, corrections: [] });
  });

  // A Z finds the ordinary results it counted by their z_report_id and keeps a hand settlement as its frozen line
  // (migration 18): the service's later result renames the hand's row (NOT-PAID#… becomes TX_SERVICE1) and, when it
  // disagrees, takes it out of the Z; neither changes that Z's CSV (but for the receipt number a PAID payment gets),
  // where the hand's line keeps its place.
  it.each([
    { status: 'FAILED', what: 'agrees: the row keeps its Z under the service reference' },
    { status: 'SUCCESS', what: 'disagrees: the row goes back to no Z' },
  ] as const)('a Z keeps its CSV byte for byte when the service then answers a hand NOT PAID it counted ($status $what)', ({ status }) => {
    const other = (reference: string, at: number) =>
      engine.applyTransaction(
        'test',
        dayResult(reference, { merchantRef: merchantRef('TBACK02', reference), completedAt: new Date(at).toISOString() }),
        null,
      );
    other('TX_BEFORE', now - 1000);
    settle({}); // completed (by hand) now
    other('TX_AFTER', now + 1000);
    other('TX_SAME', now); // completed with the hand settlement: after it by reference (# < _)
    const first = closeDay();
    const csv = day.exportCsv('test', first.id).csv;
    expect(
      csv
        .split('\r\n')
        .slice(1, 5)
        .map((r) => r.split(',')[1]),
    ).toEqual(['TX_BEFORE', `NOT-PAID#${REF}`, 'TX_SAME', 'TX_AFTER']);
    late(status);
    expect(db.prepare("SELECT z_report_id FROM transactions WHERE reference = 'TX_SERVICE1'").get()).toEqual({
      z_report_id: status === 'FAILED' ? first.id : null,
    });
    // Only the receipt number the payment got when the service said PAID is new: the export reads it (day-csv.ts).
    const kept =
      status === 'FAILED' ? csv : csv.replace(',FAILED,12.50,0.00,0.00,,,yes,,yes,', ',FAILED,12.50,0.00,0.00,,,yes,R-000001,yes,');
    expect(kept === csv).toBe(status === 'FAILED'); // the line PAID later was found
    expect(day.exportCsv('test', first.id).csv).toBe(kept);
    const second = closeDay();
    expect(day.exportCsv('test', first.id).csv).toBe(kept);
    const rows = day.exportCsv('test', second.id).csv.split('\r\n');
    const counted = rows.slice(1, rows.indexOf(''));
    expect(counted.map((r) => [r.split(',')[1], r.split(',')[7]])).toEqual(
      status === 'FAILED'
        ? []
        : [
            ['TX_SERVICE1', 'SUCCESS'],
            [`NOT-PAID#${REF}`, 'CORRECTION'],
          ],
    );
  });

  it('no correction when the service agreed on the same figures', () => {
    settle({ outcome: 'paid', reference: 'TX_SERVICE1', fee: '0.24' });
    closeDay();
    late('SUCCESS');
    expect(closeDay().report).toMatchObject({ totals: { count: 0, fees: '0.00' }, corrections: [] });
  });

  it('no correction when the service confirmed a hand PAID before any close counted it', () => {
    settle({ outcome: 'paid', reference: 'TX_SERVICE1' });
    late('SUCCESS');
    expect(closeDay().report).toMatchObject({ totals: { count: 1, fees: '0.24', net: '12.26' }, corrections: [], settledByHand: 1 });
  });
});
