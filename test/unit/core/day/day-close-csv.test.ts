/**
 * A Z's rows by reference and its CSV, on a real SQLite file: the figures summed in
 * SQL, the rows stored by reference and built into the CSV at export, payments still awaiting their result
 * listed in it but never counted, local date and time columns, receipt numbers, a byte-order mark.
 */
import { describe, expect, it } from 'vitest';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import { merchantRef } from '../../../support/day-rows.js';
import { dayTill } from '../../../support/day-till.js';

const TZ = 'Africa/Lagos'; // one hour ahead of UTC: local columns differ from completed_at
const T0 = Date.parse('2026-11-22T22:30:00Z');
const t = dayTill('momo-day-csv-', TZ, T0);
const { started, result } = t;
const csvRows = (id: number) => t.day.exportCsv('test', id).csv.slice(1).split('\r\n');
const column = (rows: string[], name: string) => rows[0]?.split(',').indexOf(name) ?? -1;

describe('the Z CSV', () => {
  it('lists PENDING and OVERDUE payments after the counted rows, amount kept, counted_in_totals=no, in no total', () => {
    started('01P', t.now - 60_000, { amount: 700, staff_id: 'ama', staff_name: 'Ama', description: 'Milo 400g — 1 tin' });
    started('01V', t.now - OVERDUE_AFTER_MS - 1, { amount: 800 });
    result('TX1', { amount: '10.00', fee: '0.20', net: '9.80' });
    t.now += 1000;
    const { id, report } = t.day.close('test', TZ, 0, null);
    expect(report.totals).toEqual({ count: 1, succeeded: 1, failed: 0, gross: '10.00', fees: '0.20', net: '9.80' });
    const rows = csvRows(id);
    const [status, counted, amount, date, time] = ['status', 'counted_in_totals', 'amount', 'local_date', 'local_time'].map((c) =>
      column(rows, c),
    ) as [number, number, number, number, number];
    const cells = rows.slice(1, 4).map((r) => r.split(','));
    expect(cells.map((c) => [c[1], c[status], c[amount], c[counted]])).toEqual([
      ['TX1', 'SUCCESS', '10.00', 'yes'],
      ['', 'OVERDUE', '8.00', 'no'],
      ['', 'PENDING', '7.00', 'no'],
    ]);
    expect(rows[2]).toContain(`,${merchantRef('TFRONT1', '01V')},Front counter,(nobody signed in),`);
    expect(rows[3]).toContain(`,${merchantRef('TFRONT1', '01P')},Front counter,Ama,MTN,`);
    // Local date and time in the till's zone (Lagos, UTC+1): TX1 completed 22:30 UTC, 23:30 in Lagos; 01P started a minute before.
    expect([cells[0]?.[date], cells[0]?.[time]]).toEqual(['2026-11-22', '23:30:00']);
    expect([cells[2]?.[date], cells[2]?.[time]]).toEqual(['2026-11-22', '23:29:00']);
    expect(cells[0]?.[0]).toBe('2026-11-22T22:30:00.000Z'); // the UTC ISO column stays
    // The summary rows count only TX1.
    expect(rows).toContain('total,Z-0001 TEST,1,1,0,10.00,0.20,9.80');
  });

  it('starts with EF BB BF and keeps "Milo 400g — 1 tin" intact in UTF-8', () => {
    result('TX1', { description: 'Milo 400g — 1 tin' });
    const { id } = t.day.close('test', TZ, 0, null);
    const bytes = Buffer.from(t.day.exportCsv('test', id).csv, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toContain(',Milo 400g — 1 tin,');
  });

  it('gives the receipt number of a PAID payment of this till, none to another till or a failure', () => {
    started('01A', t.now - 60_000, { amount: 1000 });
    t.repo.update('01A', { state: 'success' }, t.now);
    result('TX_A', { merchantRef: merchantRef('TFRONT1', '01A'), amount: '10.00', fee: '0.20', net: '9.80' });
    result('TX_B', { merchantRef: merchantRef('TBACK02', '01B') });
    result('TX_F', { status: 'FAILED' });
    const { id } = t.day.close('test', TZ, 0, null);
    const rows = csvRows(id);
    const receipt = column(rows, 'receipt_no');
    expect(rows.slice(1, 4).map((r) => [r.split(',')[1], r.split(',')[receipt]])).toEqual([
      ['TX_A', 'R-000001'],
      ['TX_B', ''],
      ['TX_F', ''],
    ]);
  });
});

describe('a Z stored by reference', () => {
  it('stores no row per ordinary result: the export finds those it counted by their Z, in CSV order', () => {
    for (let i = 0; i < 5; i++) {
      t.now += 1000;
      result(`TX${5 - i}`, { amount: `${i + 1}.00`, fee: '0.00', net: `${i + 1}.00` });
    }
    result('TX0'); // completed with TX1: the reference orders them
    const { id } = t.day.close('test', TZ, 0, null);
    expect(t.db.prepare('SELECT lines, rows_kept FROM z_reports WHERE id = ?').get(id)).toEqual({ lines: '[]', rows_kept: 'frozen' });
    expect(t.db.prepare('SELECT count(*) AS n FROM z_report_rows').get()).toEqual({ n: 0 });
    expect(t.db.prepare('SELECT count(*) AS n FROM transactions WHERE z_report_id = ?').get(id)).toEqual({ n: 6 });
    expect(
      csvRows(id)
        .slice(1, 8)
        .map((r) => r.split(',').slice(1, 2)[0]),
    ).toEqual(['TX5', 'TX4', 'TX3', 'TX2', 'TX0', 'TX1', undefined]);
  });

  it('exports a Z closed before migration 18 (rows_kept each) from its row per line, in their order, late as each row says', () => {
    for (const ref of ['TX1', 'TX2', 'TX3']) {
      t.now += 1000;
      result(ref);
    }
    // Its report as stored before arrivedAfterClose existed; its rows in the order that Z's close wrote them.
    const { arrivedAfterClose: _, ...report } = { ...t.day.xReport('test', TZ), kind: 'z', number: 1, label: 'Z-0001' };
    const z = t.db
      .prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, ?, ?, '[]')")
      .run(t.now, JSON.stringify(report));
    const id = Number(z.lastInsertRowid);
    t.db.prepare('UPDATE transactions SET z_report_id = ?').run(id);
    const row = t.db.prepare('INSERT INTO z_report_rows (z_report_id, seq, reference, late, line) VALUES (?, ?, ?, ?, NULL)');
    row.run(id, 1, 'TX3', 0);
    row.run(id, 2, 'TX1', 1);
    row.run(id, 3, 'TX2', 0);
    expect(t.db.prepare('SELECT rows_kept FROM z_reports WHERE id = ?').get(id)).toEqual({ rows_kept: 'each' });
    const rows = csvRows(id);
    const late = column(rows, 'arrived_after_close');
    expect(rows.slice(1, 5).map((r) => [r.split(',')[1], r.split(',')[late]])).toEqual([
      ['TX3', ''],
      ['TX1', 'yes'],
      ['TX2', ''],
      [undefined, undefined], // the end of the rows: exactly three
    ]);
  });

  it('sums as before: nobody signed in apart from a named cashier, the first start as the opening, settled by hand counted', () => {
    started('01S', T0 - 3_600_000, { amount: 500 }); // started an hour before its result: the day opened then
    result('TX1', { merchantRef: merchantRef('TFRONT1', '01S'), amount: '5.00', fee: '0.10', net: '4.90' });
    result('TX2', { amount: '2.00', fee: '0.04', net: '1.96', cashier: ['ama', 'Ama'] });
    result('TX3', { amount: '3.00', fee: '0.06', net: '2.94', cashier: ['ama', 'Ama'] });
    result('TX4', { status: 'FAILED', amount: '9.00' });
    const x = t.day.xReport('test', TZ);
    expect(x.openedAt).toBe(new Date(T0 - 3_600_000).toISOString());
    expect(x.byCashier.map((c) => [c.cashierId, c.cashier, c.count, c.succeeded, c.failed, c.gross, c.fees, c.net])).toEqual([
      [null, null, 2, 1, 1, '5.00', '0.10', '4.90'],
      ['ama', 'Ama', 2, 2, 0, '5.00', '0.10', '4.90'],
    ]);
    expect(x.byNetwork.map((n) => [n.network, n.count])).toEqual([
      ['MTN', 1], // this till's own sandbox payment: the network the cashier charged
      ['SANDBOX', 3],
    ]);
    expect(x.totals).toEqual({ count: 4, succeeded: 3, failed: 1, gross: '10.00', fees: '0.20', net: '9.80' });
    expect(x.failures.map((f) => f.reference)).toEqual(['TX4']);
    expect(x.settledByHand).toBe(0);
    expect(t.day.xReport('live', TZ)).toMatchObject({ openedAt: null, totals: { count: 0 }, byCashier: [], failures: [] });
  });

  it("opens the first Z at the earliest start: a payment's start, or another till's completion; never a payment's completion", () => {
    const opened = () => t.day.xReport('test', TZ).openedAt;
    const iso = (ms: number) => new Date(ms).toISOString();
    started('01A', T0 - 9_000_000); // still awaiting its result: no start of a counted row
    expect(opened()).toBeNull();
    started('01S', T0 - 100);
    result('TXS', { merchantRef: merchantRef('TFRONT1', '01S'), completedAt: iso(T0 - 5_000_000) }); // its clock was wrong
    expect(opened()).toBe(iso(T0 - 100));
    result('TXL', { merchantRef: merchantRef('TBACK02', '01L'), completedAt: iso(T0 + 60_000) }); // another till, later
    expect(opened()).toBe(iso(T0 - 100));
    result('TXO', { merchantRef: merchantRef('TBACK02', '01O'), completedAt: iso(T0 - 4_000_000) });
    expect(opened()).toBe(iso(T0 - 4_000_000));
    started('01E', T0 - 8_000_000);
    result('TXE', { merchantRef: merchantRef('TFRONT1', '01E') });
    expect(opened()).toBe(iso(T0 - 8_000_000));
    expect(t.day.close('test', TZ, 0, null).report.openedAt).toBe(iso(T0 - 8_000_000));
  });

  it('marks a result that arrived after a close as late in its CSV row, as its report lists it, and only that one', () => {
    started('01W', t.now - 60_000, { amount: 700 });
    result('TX1');
    t.now += 1000;
    t.day.close('test', TZ, 0, null);
    t.now += 60_000;
    result('TXW', { merchantRef: merchantRef('TFRONT1', '01W'), amount: '7.00', fee: '0.14', net: '6.86' });
    result('TX2');
    t.now += 1000;
    const { id, report } = t.day.close('test', TZ, 1, null);
    expect(report.arrivedAfterClose.map((r) => r.reference)).toEqual(['TXW']);
    expect(t.db.prepare('SELECT count(*) AS n FROM z_report_rows WHERE z_report_id = ?').get(id)).toEqual({ n: 0 });
    const rows = csvRows(id);
    const late = column(rows, 'arrived_after_close');
    expect(rows.slice(1, 3).map((r) => [r.split(',')[1], r.split(',')[late]])).toEqual([
      ['TX2', ''],
      ['TXW', 'yes'],
    ]);
  });
});

describe('the Z CSV and list, with two tills and two closes', () => {
  // Killed mutants: csvLine's and awaitingRow's `byTill.find(...)` -> `find(() => true)` (every row named after
  // the first till), and the close storing no opened_at (day-close.ts, read back only by list()).
  it('names each row after its own till, counted or awaiting its result', () => {
    t.db
      .prepare("INSERT INTO till_names (till_id, name, seen_at) VALUES ('TBACK02', 'Back room', 1), ('TFRONT1', 'Front counter', 1)")
      .run();
    started('01P', t.now - 60_000, { amount: 700 });
    result('TXF', { merchantRef: merchantRef('TFRONT1', '01F'), amount: '3.00', fee: '0.06', net: '2.94' });
    result('TXB', { merchantRef: merchantRef('TBACK02', '01B'), amount: '4.00', fee: '0.08', net: '3.92' });
    t.now += 1000;
    const { id, report } = t.day.close('test', TZ, 0, null);
    expect(report.byTill.map((t) => t.tillName)).toEqual(['Back room', 'Front counter']);
    const rows = csvRows(id);
    const [till, status, merchant] = ['till', 'status', 'merchant_ref'].map((c) => column(rows, c));
    const named = rows
      .slice(1)
      .map((r) => r.split(','))
      .filter((cells) => cells[merchant ?? -1]?.startsWith('T'))
      .map((cells) => [cells[merchant ?? -1]?.slice(0, 7), cells[status ?? -1], cells[till ?? -1]]);
    expect(named.sort()).toEqual([
      ['TBACK02', 'SUCCESS', 'Back room'],
      ['TFRONT1', 'PENDING', 'Front counter'],
      ['TFRONT1', 'SUCCESS', 'Front counter'],
    ]);
  });

  it('closes a day that only has a payment awaiting its result: its row names this till as Settings do, in no total', () => {
    started('01P', t.now - 60_000, { amount: 700 });
    t.now += 1000;
    const { id, report } = t.day.close('test', TZ, 0, null);
    expect(report.byTill).toEqual([]);
    const rows = csvRows(id);
    const [till, status, counted] = ['till', 'status', 'counted_in_totals'].map((c) => column(rows, c)) as [number, number, number];
    const cells = rows[1]?.split(',') ?? [];
    expect([cells[till], cells[status], cells[counted]]).toEqual(['Front counter', 'PENDING', 'no']);
    expect(rows).toContain('total,Z-0001 TEST,0,0,0,0.00,0.00,0.00');
  });

  it('lists each Z opened where the one before it closed', () => {
    result('TX1');
    t.now += 1000;
    const first = t.day.close('test', TZ, 0, null);
    t.now += 60_000;
    result('TX2');
    t.now += 1000;
    t.day.close('test', TZ, 1, null);
    const [z2, z1] = [...t.day.list('test')].sort((a, b) => b.number - a.number);
    expect(z1?.closedAt).toBe(first.report.at);
    expect(z2?.openedAt).toBe(z1?.closedAt);
    expect(z2?.closedAt).toBe(new Date(t.now).toISOString());
  });
});
