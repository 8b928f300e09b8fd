/**
 * Every field of a day report's lines and of the Z list, exactly (the day's close is held to a
 * mutation-score floor): failures, results that arrived after a close, payments awaiting a result, the
 * refusal of a second close, and the awaiting rows of the CSV under a till's own name.
 */
import { describe, expect, it } from 'vitest';
import { OVERDUE_ADVICE, PENDING_ADVICE } from '../../../../electron/core/day/day-report.js';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import { FAILURES_LISTED } from '../../../../shared/ipc/contract.js';
import { buildDayReportDocument } from '../../../../shared/receipt/build-day-report.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';
import { merchantRef } from '../../../support/day-rows.js';
import { dayTill } from '../../../support/day-till.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T08:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const t = dayTill('momo-day-lines-', TZ, T0);
const { started, result } = t;

describe('the lines of a day report, field by field', () => {
  it('a failure of this till (its start and reason) and of another till (neither), in order of completion', () => {
    started('01F', T0 - 5_000, { state: 'failed', staff_name: 'Ama' });
    t.db.prepare("UPDATE payments SET error_message = 'The customer declined.' WHERE id = '01F'").run();
    result('TXB', { merchantRef: merchantRef('TBACK02', '01B'), status: 'FAILED', amount: '2.00', completedAt: iso(T0 - 1000) });
    result('TXF', { merchantRef: merchantRef('TFRONT1', '01F'), status: 'FAILED', amount: '3.00', cashier: ['ama', 'Ama'] });
    expect(t.day.xReport('test', TZ).failures).toEqual([
      {
        reference: 'TXB',
        merchantRef: merchantRef('TBACK02', '01B'),
        completedAt: iso(T0 - 1000),
        startedAt: null,
        msisdn: '024 123 4567',
        status: 'FAILED',
        amount: '2.00',
        till: 'TBACK02',
        cashier: null,
        reason: null,
        settledByHand: false,
      },
      {
        reference: 'TXF',
        merchantRef: merchantRef('TFRONT1', '01F'),
        completedAt: iso(T0),
        startedAt: iso(T0 - 5_000),
        msisdn: '024 123 4567',
        status: 'FAILED',
        amount: '3.00',
        till: 'Front counter',
        cashier: 'Ama',
        reason: 'The customer declined.',
        settledByHand: false,
      },
    ]);
  });

  it('awaiting payments, pending and overdue, with every field; the report opens at the earliest result', () => {
    result('TX1', { completedAt: iso(T0 - 7_000) });
    result('TX2', { completedAt: iso(T0 - 9_000) });
    started('01P', t.now - 60_000, { amount: 700, network: 'TELECEL', staff_name: 'Kofi', msisdn: '233201234567' });
    started('01V', t.now - OVERDUE_AFTER_MS - 1, { amount: 800 });
    const x = t.day.xReport('test', TZ);
    expect(x.openedAt).toBe(iso(T0 - 9_000));
    expect(x.awaiting).toEqual([
      {
        paymentId: '01V',
        merchantRef: merchantRef('TFRONT1', '01V'),
        startedAt: iso(t.now - OVERDUE_AFTER_MS - 1),
        msisdn: '024 123 4567',
        amount: '8.00',
        network: 'MTN',
        cashier: null,
        status: 'overdue',
        whatToDo: OVERDUE_ADVICE.replace('{ref}', merchantRef('TFRONT1', '01V')),
      },
      {
        paymentId: '01P',
        merchantRef: merchantRef('TFRONT1', '01P'),
        startedAt: iso(t.now - 60_000),
        msisdn: '020 123 4567',
        amount: '7.00',
        network: 'TELECEL',
        cashier: 'Kofi',
        status: 'pending',
        whatToDo: PENDING_ADVICE,
      },
    ]);
    expect(PENDING_ADVICE).toBe('Wait: its result can still arrive. It will be counted in the next Z report.');
  });

  it('a result for a closed day: its line names that Z, or none when it started before every close', () => {
    result('TX1');
    t.now += 1000;
    t.day.close('test', TZ, 0, null);
    t.now += 60_000;
    // Another till's result completed before Z-0001's close: it belongs to that closed day.
    result('TXL', { merchantRef: merchantRef('TBACK02', '01L'), completedAt: iso(T0 + 500), amount: '4.00' });
    result('TXK', { merchantRef: merchantRef('TBACK02', '01K'), completedAt: iso(T0 + 100), amount: '4.00' }); // came second, completed first
    const x = t.day.xReport('test', TZ);
    expect(x.kind).toBe('x');
    expect(x.arrivedAfterClose).toEqual([
      expect.objectContaining({ reference: 'TXK', completedAt: iso(T0 + 100), startedAt: null, closedDay: 'Z-0001' }),
      expect.objectContaining({ reference: 'TXL', completedAt: iso(T0 + 500), startedAt: null, closedDay: 'Z-0001' }),
    ]);
  });

  it('lists closed Zs exactly, and refuses a second close naming the Z without a closer when nobody signed in', () => {
    const first = t.day.close('test', TZ, 0, null); // an empty day still closes
    t.now += 1000;
    result('TX1', { amount: '2.00', fee: '0.04', net: '1.96' });
    t.now += 1000;
    const second = t.day.close('test', TZ, 1, { id: 'ama', name: 'Ama' });
    expect(t.day.list('test')).toEqual([
      {
        id: second.id,
        number: 2,
        label: 'Z-0002',
        openedAt: iso(T0),
        closedAt: iso(t.now),
        closedBy: 'Ama',
        totals: { count: 1, succeeded: 1, failed: 0, gross: '2.00', fees: '0.04', net: '1.96' },
      },
      {
        id: first.id,
        number: 1,
        label: 'Z-0001',
        openedAt: null,
        closedAt: iso(T0),
        closedBy: null,
        totals: { count: 0, succeeded: 0, failed: 0, gross: '0.00', fees: '0.00', net: '0.00' },
      },
    ]);
    expect(first.report.openedAt).toBeNull();
    expect(t.db.prepare('SELECT closed_by_id, closed_by_name FROM z_reports ORDER BY number').all()).toEqual([
      { closed_by_id: null, closed_by_name: null },
      { closed_by_id: 'ama', closed_by_name: 'Ama' },
    ]);
    t.day.close('test', TZ, 2, null);
    expect(() => t.day.close('test', TZ, 2, null)).toThrow(
      expect.objectContaining({ code: 'ALREADY_CLOSED', message: 'The day was just closed as Z-0003. Nothing was closed twice.' }),
    );
    // A close that believes a Z was made when none was (another environment's number): refused the same way.
    expect(() => t.day.close('live', TZ, 1, null)).toThrow(
      expect.objectContaining({ code: 'ALREADY_CLOSED', message: 'The day was just closed as Z-0000. Nothing was closed twice.' }),
    );
    expect(() => t.day.exportCsv('test', 99)).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', message: 'There is no such Z report in this environment.' }),
    );
  });
});

describe('the awaiting rows of the Z CSV', () => {
  it("name this till as Takings does, and write an awaiting payment's cells exactly", () => {
    t.db.prepare("INSERT INTO till_names (till_id, name, seen_at) VALUES ('TFRONT1', 'Front counter', 1)").run();
    result('TX1', { description: 'Milo, 2' }); // a description ending in a figure is still quoted
    result('TX2', { description: '5 tins, big' }); // and one starting with one
    started('01P', t.now - 60_000, { amount: 700, staff_name: 'Kofi' });
    const { id } = t.day.close('test', TZ, 0, null);
    const rows = t.day.exportCsv('test', id).csv.split('\r\n');
    expect(rows[1]).toMatch(/^[^,]+,TX1,[^,]+,Front counter,,SANDBOX,024 123 4567,SUCCESS,1\.00,0\.02,0\.98,"Milo, 2",,,,yes,/);
    expect(rows[2]).toMatch(/,"5 tins, big",,,,yes,/);
    expect(rows).toContain('cashier,(nobody signed in),2,2,0,2.00,0.04,1.96');
    rows.splice(1, 1);
    expect(rows[2]).toBe(
      `,,${merchantRef('TFRONT1', '01P')},Front counter,Kofi,MTN,024 123 4567,PENDING,7.00,,,,,,,no,2026-11-22,07:59:00`,
    );
    expect(rows[3]).toBe('');
  });
});

describe('a long list of failures (issue 20 item 15)', () => {
  it('lists only the latest FAILURES_LISTED, oldest first, and counts them all; the Z CSV keeps every one', () => {
    for (let i = 0; i < FAILURES_LISTED + 5; i += 1) {
      t.now = T0 + i * 1000;
      result(`TX${String(i).padStart(3, '0')}`, { status: 'FAILED', amount: '1.00' });
    }
    result('TXOK', { amount: '4.00' });
    const x = t.day.xReport('test', TZ);
    expect(x.failuresCount).toBe(FAILURES_LISTED + 5);
    expect(x.failures.map((f) => f.reference)).toEqual(
      Array.from({ length: FAILURES_LISTED }, (_, k) => `TX${String(k + 5).padStart(3, '0')}`),
    );
    expect(x.totals).toMatchObject({ count: FAILURES_LISTED + 6, failed: FAILURES_LISTED + 5, succeeded: 1, gross: '4.00' });
    const paper = buildDayReportDocument(x, DEFAULT_RECEIPT_SETTINGS, 'Front counter').blocks.map((b) =>
      'text' in b ? b.text : 'label' in b ? b.label : '',
    );
    expect(paper).toContain(`The latest ${FAILURES_LISTED}; all ${FAILURES_LISTED + 5} are in the CSV.`);
    t.now += 1000;
    const { id, report } = t.day.close('test', TZ, 0, null);
    expect(report.failuresCount).toBe(FAILURES_LISTED + 5);
    const csv = t.day.exportCsv('test', id).csv;
    expect(csv.split('\r\n').filter((line) => line.includes(',FAILED,'))).toHaveLength(FAILURES_LISTED + 5);
  });
});
