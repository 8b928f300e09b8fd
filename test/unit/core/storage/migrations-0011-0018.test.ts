/**
 * The till's migrations 11 to 18 (Z reports, settle by hand, receipt numbers, who stopped waiting, a Z's rows),
 * one test or more each, on a database at the schema a user of the version before has (the earlier ones:
 * migrations-0001-0010.test.ts; opening and the history: migrations.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type Db } from '../../../../electron/core/storage/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/core/storage/migrations/index.js';
import { insertRow, migrateTo } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { DayClose } from '../../../../electron/core/day/index.js';
import { isStrict, tillDatabases, transaction } from '../../../support/till-migrations.js';

const { tillAt } = tillDatabases();

describe('migration 11: Z reports', () => {
  it('leaves existing transactions in no Z, numbers Z reports once per environment, and refuses to change or delete one', () => {
    const v10 = tillAt(10);
    insertRow(v10, 'transactions', transaction('TX_OLD'));
    migrateTo(v10, MIGRATIONS, 11);
    const v11 = v10;
    expect(isStrict(v11, 'z_reports')).toBe(true);
    expect(v11.prepare('SELECT z_report_id FROM transactions').get()).toEqual({ z_report_id: null });
    const z = v11.prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES (?, ?, 5, '{}', '[]')");
    const id = Number(z.run('test', 1).lastInsertRowid);
    z.run('live', 1);
    expect(() => z.run('test', 1)).toThrow(/UNIQUE/);
    expect(() => z.run('staging', 2)).toThrow(/CHECK/);
    v11.prepare('UPDATE transactions SET z_report_id = ?').run(id);
    expect(() => v11.prepare('UPDATE transactions SET z_report_id = 99').run()).toThrow(/FOREIGN KEY/);
    expect(() => v11.prepare('UPDATE z_reports SET report = \'{"x":1}\'').run()).toThrow(/a Z report never changes/);
    expect(() => v11.prepare('DELETE FROM z_reports').run()).toThrow(/a Z report never changes/);
  });
});

describe('migration 12: results settled by hand indexed', () => {
  it('finds the results settled by hand through a partial index, the others not in it', () => {
    const v11 = tillAt(11);
    insertRow(v11, 'transactions', transaction('TX_SERVICE'));
    insertRow(v11, 'transactions', transaction('TX_HAND', { settled_by_hand: 1 }));
    migrateTo(v11, MIGRATIONS, 12);
    const v12 = v11;
    const sql = "SELECT reference FROM transactions WHERE environment = 'test' AND settled_by_hand = 1";
    expect(v12.prepare(sql).all()).toEqual([{ reference: 'TX_HAND' }]);
    const plan = (v12.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' ');
    expect(plan).toContain('USING INDEX transactions_by_hand');
  });
});

describe('migration 13: payments settled by hand indexed', () => {
  it('finds the payments settled by hand of an environment through a partial index, the others not in it', () => {
    const v12 = tillAt(12);
    insertRow(v12, 'payments', paymentRow('plain'));
    insertRow(v12, 'payments', { ...paymentRow('hand'), hand_outcome: 'paid', hand_check: 'overridden' });
    insertRow(v12, 'payments', { ...paymentRow('live-hand', { environment: 'live' }), hand_outcome: 'not_paid' });
    migrateTo(v12, MIGRATIONS, 13);
    const v13 = v12;
    const sql = "SELECT merchant_ref, hand_check FROM payments WHERE environment = 'test' AND hand_outcome IS NOT NULL";
    expect(v13.prepare(sql).all()).toEqual([{ merchant_ref: 'm-hand', hand_check: 'overridden' }]);
    const plan = (v13.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' ');
    expect(plan).toContain('USING INDEX payments_by_hand');
  });
});

describe('migration 14: daily rollup by cashier and by hand', () => {
  it('rebuilds the rollup keyed also by who started each payment and whether it was settled by hand, with the same figures', () => {
    const v13 = tillAt(13);
    insertRow(v13, 'transactions', transaction('TX_AMA', { staff_id: 'S_AMA', staff_name: 'Ama', network: 'MTN' }));
    insertRow(v13, 'transactions', transaction('TX_AMA_2', { staff_id: 'S_AMA', staff_name: 'Ama', network: 'MTN', status: 'FAILED' }));
    insertRow(v13, 'transactions', transaction('TX_NOBODY', { network: 'MTN', amount: 500, fee: 10, net: 490 }));
    insertRow(v13, 'transactions', transaction('TX_HAND', { staff_id: 'S_AMA', staff_name: 'Ama', network: 'MTN', settled_by_hand: 1 }));
    migrateTo(v13, MIGRATIONS, 14);
    const rows = v13
      .prepare('SELECT staff_key, by_hand, staff_name, succeeded, failed, gross, fees, net FROM daily_takings ORDER BY staff_key, by_hand')
      .all();
    expect(rows).toEqual([
      { staff_key: '', by_hand: 0, staff_name: null, succeeded: 1, failed: 0, gross: 500, fees: 10, net: 490 },
      { staff_key: 'S_AMA', by_hand: 0, staff_name: 'Ama', succeeded: 1, failed: 1, gross: 100, fees: 2, net: 98 },
      { staff_key: 'S_AMA', by_hand: 1, staff_name: 'Ama', succeeded: 1, failed: 0, gross: 100, fees: 2, net: 98 },
    ]);
    expect(isStrict(v13, 'daily_takings')).toBe(true);
  });
});

describe('migration 15: receipt numbers', () => {
  const receiptNo = (db: Db, id: string) =>
    (db.prepare('SELECT receipt_no FROM payments WHERE id = ?').get(id) as { receipt_no: number | null }).receipt_no;

  it('numbers existing PAID payments in the order they completed, then numbers each new PAID in its own statement, per environment', () => {
    const db = tillAt(14);
    insertRow(db, 'payments', { ...paymentRow('late', { state: 'success' }), completed_at: 20 });
    insertRow(db, 'payments', { ...paymentRow('early', { state: 'success' }), completed_at: 10 });
    insertRow(db, 'payments', { ...paymentRow('failed', { state: 'failed' }), completed_at: 15 });
    insertRow(db, 'payments', paymentRow('waiting', { state: 'awaiting_customer' }));
    insertRow(db, 'payments', paymentRow('live', { environment: 'live', state: 'awaiting_customer' }));
    migrateTo(db, MIGRATIONS, 15);
    expect([receiptNo(db, 'early'), receiptNo(db, 'late'), receiptNo(db, 'failed'), receiptNo(db, 'waiting')]).toEqual([1, 2, null, null]);
    db.prepare("UPDATE payments SET state = 'success' WHERE id IN ('waiting', 'live')").run();
    expect(receiptNo(db, 'waiting')).toBe(3);
    expect(receiptNo(db, 'live')).toBe(1);
    // A later change of state (a service correcting a hand settlement) keeps the number; it is never given again.
    db.prepare("UPDATE payments SET state = 'failed' WHERE id = 'waiting'").run();
    db.prepare("UPDATE payments SET state = 'success' WHERE id = 'waiting'").run();
    expect(receiptNo(db, 'waiting')).toBe(3);
    expect(() => db.prepare("UPDATE payments SET receipt_no = 9 WHERE id = 'early'").run()).toThrow(/a receipt number never changes/);
  });

  it('gives a number back when the transaction that made the payment PAID rolls back, so numbers stay gap-free', () => {
    const db = tillAt(15);
    insertRow(db, 'payments', paymentRow('a', { state: 'awaiting_customer' }));
    insertRow(db, 'payments', paymentRow('b', { state: 'awaiting_customer' }));
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE payments SET state = 'success' WHERE id = 'a'").run();
        throw new Error('the result could not be stored');
      })(),
    ).toThrow(/could not be stored/);
    expect(receiptNo(db, 'a')).toBeNull();
    db.prepare("UPDATE payments SET state = 'success' WHERE id = 'b'").run();
    expect(receiptNo(db, 'b')).toBe(1);
  });
});

describe('migration 16: who stopped waiting', () => {
  it('keeps every payment, with nobody named for those stopped before it', () => {
    const v15 = tillAt(15);
    insertRow(v15, 'payments', { ...paymentRow('stopped'), stopped_waiting: 1 });
    migrateTo(v15, MIGRATIONS, 16);
    expect(v15.prepare('SELECT merchant_ref, stopped_waiting, stopped_by_name FROM payments').all()).toEqual([
      { merchant_ref: 'm-stopped', stopped_waiting: 1, stopped_by_name: null },
    ]);
    v15.prepare("UPDATE payments SET stopped_by_name = 'Ama'").run();
    expect(v15.prepare('SELECT stopped_by_name FROM payments').get()).toEqual({ stopped_by_name: 'Ama' });
  });
});

describe('migration 17: Z rows by reference', () => {
  it("copies each line of a Z closed before it as a frozen row, in order, so its CSV exports as it did; new rows can't change", () => {
    const v16 = tillAt(16);
    insertRow(v16, 'transactions', transaction('TX_A', { completed_at: Date.parse('2026-11-22T08:00:00Z') }));
    insertRow(v16, 'transactions', transaction('TX_B', { status: 'FAILED', fee: 0, net: 0 }));
    // As the close of version 16 froze them: one line per row (14 cells), a late one, then a correction.
    const lines = [
      [
        '2026-11-22T08:00:00.000Z',
        'TX_A',
        'T1.a',
        'Front',
        'Ama',
        'MTN',
        '024 123 4567',
        'SUCCESS',
        '1.00',
        '0.02',
        '0.98',
        'Milo 400g — 1 tin, "big"',
        '',
        '',
      ],
      [
        '2026-11-22T09:00:00.000Z',
        'TX_B',
        'T1.b',
        'Front',
        null,
        'MTN',
        '024 123 4567',
        'FAILED',
        '1.00',
        '0.00',
        '0.00',
        '=1+1',
        'yes',
        'yes',
      ],
      [
        '2026-11-21T10:00:00.000Z',
        'TX_H',
        'T1.h',
        'Front',
        'Kofi',
        'MTN',
        '024 123 4567',
        'CORRECTION',
        '-5.00',
        '-0.10',
        '-4.90',
        'Sale',
        '',
        'yes',
      ],
    ];
    const report = { label: 'Z-0001', environment: 'test', timeZone: 'Africa/Accra', at: '2026-11-22T20:00:00.000Z', awaiting: [] };
    const totals = { count: 2, succeeded: 1, failed: 1, gross: '1.00', fees: '0.02', net: '0.98' };
    const z = v16
      .prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, 5, ?, ?)")
      .run(JSON.stringify({ ...report, totals, byCashier: [], byTill: [], byNetwork: [] }), JSON.stringify(lines));
    v16.prepare('UPDATE transactions SET z_report_id = ?').run(z.lastInsertRowid);
    migrateTo(v16, MIGRATIONS, 17);
    expect(isStrict(v16, 'z_report_rows')).toBe(true);
    expect(v16.prepare('SELECT z_report_id, seq, reference, late, line FROM z_report_rows ORDER BY seq').all()).toEqual(
      lines.map((line, i) => ({ z_report_id: 1, seq: i + 1, reference: line[1], late: i === 1 ? 1 : 0, line: JSON.stringify(line) })),
    );
    expect(() => v16.prepare('UPDATE z_report_rows SET late = 1').run()).toThrow(/a Z report never changes/);
    expect(() => v16.prepare('DELETE FROM z_report_rows').run()).toThrow(/a Z report never changes/);
    expect(() => v16.prepare("INSERT INTO z_report_rows VALUES (99, 1, 'x', 0, NULL)").run()).toThrow(/FOREIGN KEY/);
    expect(() => v16.prepare("INSERT INTO z_report_rows VALUES (1, 9, 'x', 2, NULL)").run()).toThrow(/CHECK/);
    // The export of that Z (the code of this version, which needs the schema it knows) writes each old line's 14
    // cells as version 16 did, then the new cells.
    migrateTo(v16, MIGRATIONS, SCHEMA_VERSION);
    const csv = new DayClose(
      v16,
      () => 0,
      () => ({ id: 'T1', name: 'Front' }),
    )
      .exportCsv('test', 1)
      .csv.slice(1)
      .split('\r\n');
    expect(csv.slice(1, 4)).toEqual([
      '2026-11-22T08:00:00.000Z,TX_A,T1.a,Front,Ama,MTN,024 123 4567,SUCCESS,1.00,0.02,0.98,"Milo 400g — 1 tin, ""big""",,,,yes,2026-11-22,08:00:00',
      "2026-11-22T09:00:00.000Z,TX_B,T1.b,Front,,MTN,024 123 4567,FAILED,1.00,0.00,0.00,'=1+1,yes,yes,,yes,2026-11-22,09:00:00",
      '2026-11-21T10:00:00.000Z,TX_H,T1.h,Front,Kofi,MTN,024 123 4567,CORRECTION,-5.00,-0.10,-4.90,Sale,,yes,,yes,2026-11-21,10:00:00',
    ]);
    expect(csv[4]).toBe('');
  });

  it('indexes the results in no Z (covering their sums, and the failed ones), and only those', () => {
    const v16 = tillAt(16);
    insertRow(v16, 'transactions', transaction('TX_A'));
    insertRow(v16, 'transactions', transaction('TX_F', { status: 'FAILED' }));
    migrateTo(v16, MIGRATIONS, 17);
    const count = (index: string, failed = '') =>
      (
        v16
          .prepare(
            `SELECT count(*) AS n FROM transactions INDEXED BY ${index} WHERE environment = 'test' AND z_report_id IS NULL ${failed}`,
          )
          .get() as { n: number }
      ).n;
    const both = () => [count('transactions_unclosed'), count('transactions_unclosed_failed', "AND status = 'FAILED'")];
    expect(both()).toEqual([2, 1]);
    const z = v16.prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, 5, '{}', '[]')").run();
    v16.prepare('UPDATE transactions SET z_report_id = ?').run(z.lastInsertRowid);
    expect(both()).toEqual([0, 0]);
  });
});

describe('migration 18: Z rows kept by the results', () => {
  const count = (db: Db, index: string, where: string) =>
    (
      db.prepare(`SELECT count(*) AS n FROM transactions INDEXED BY ${index} WHERE environment = 'test' AND ${where}`).get() as {
        n: number;
      }
    ).n;

  it('keeps each Z closed before it as it was (rows_kept each): its rows by reference, late and frozen, export as they did', () => {
    const v17 = tillAt(17);
    const at = (hh: string) => Date.parse(`2026-11-22T${hh}:00:00Z`);
    insertRow(v17, 'transactions', transaction('TX_A', { completed_at: at('08'), client_reference: 'T1.a', till_id: 'T1' }));
    insertRow(v17, 'transactions', transaction('TX_L', { completed_at: at('09'), status: 'FAILED', fee: 0, net: 0 }));
    insertRow(v17, 'transactions', transaction('TX_H', { completed_at: at('10'), settled_by_hand: 1 }));
    const report = { label: 'Z-0001', environment: 'test', timeZone: 'Africa/Accra', at: '2026-11-22T20:00:00.000Z', awaiting: [] };
    const totals = { count: 3, succeeded: 2, failed: 1, gross: '2.00', fees: '0.04', net: '1.96' };
    const z = v17
      .prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, 5, ?, '[]')")
      .run(JSON.stringify({ ...report, totals, byCashier: [], byTill: [], byNetwork: [], arrivedAfterClose: [] }));
    v17.prepare('UPDATE transactions SET z_report_id = ?').run(z.lastInsertRowid);
    const hand = [
      '2026-11-22T10:00:00.000Z',
      'TX_H',
      null,
      'other',
      null,
      'SANDBOX',
      '233',
      'SUCCESS',
      '1.00',
      '0.02',
      '0.98',
      '',
      '',
      'yes',
    ];
    const rows = v17.prepare('INSERT INTO z_report_rows (z_report_id, seq, reference, late, line) VALUES (1, ?, ?, ?, ?)');
    rows.run(1, 'TX_A', 0, null);
    rows.run(2, 'TX_L', 1, null); // late: the export reads it from its row, as version 17 wrote it
    rows.run(3, 'TX_H', 0, JSON.stringify(hand));
    migrateTo(v17, MIGRATIONS, 18);
    expect(v17.prepare('SELECT rows_kept FROM z_reports').all()).toEqual([{ rows_kept: 'each' }]);
    expect(v17.prepare('SELECT completed_at FROM z_report_rows').all()).toEqual([null, null, null].map((c) => ({ completed_at: c })));
    migrateTo(v17, MIGRATIONS, SCHEMA_VERSION); // exported as the app does, on the latest schema
    const csv = new DayClose(
      v17,
      () => 0,
      () => ({ id: 'T1', name: 'Front' }),
    )
      .exportCsv('test', 1)
      .csv.slice(1)
      .split('\r\n');
    expect(csv.slice(1, 5)).toEqual([
      '2026-11-22T08:00:00.000Z,TX_A,T1.a,T1,,SANDBOX,233,SUCCESS,1.00,0.02,0.98,,,,,yes,2026-11-22,08:00:00',
      '2026-11-22T09:00:00.000Z,TX_L,,other,,SANDBOX,233,FAILED,1.00,0.00,0.00,,yes,,,yes,2026-11-22,09:00:00',
      '2026-11-22T10:00:00.000Z,TX_H,,other,,SANDBOX,233,SUCCESS,1.00,0.02,0.98,,,yes,,yes,2026-11-22,10:00:00',
      '',
    ]);
    expect(() => v17.prepare("UPDATE z_reports SET rows_kept = 'frozen'").run()).toThrow(/a Z report never changes/);
    expect(() =>
      v17
        .prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines, rows_kept) VALUES ('test', 2, 6, '{}', '[]', 'x')")
        .run(),
    ).toThrow(/CHECK/);
  });

  it('indexes the closed rows by Z and the rows in no Z by time, each only those; the old indexes are gone', () => {
    const v17 = tillAt(17);
    insertRow(v17, 'transactions', transaction('TX_A'));
    insertRow(v17, 'transactions', transaction('TX_F', { status: 'FAILED' }));
    migrateTo(v17, MIGRATIONS, 18);
    const indexes = v17.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'transactions' ORDER BY name").all();
    expect(indexes.map((i) => (i as { name: string }).name)).toEqual([
      'sqlite_autoindex_transactions_1',
      'transactions_by_hand',
      'transactions_closed',
      'transactions_env_client_ref',
      'transactions_env_date',
      'transactions_unclosed',
      'transactions_unclosed_by_time',
    ]);
    const both = () => [
      count(v17, 'transactions_closed', 'z_report_id IS NOT NULL'),
      count(v17, 'transactions_unclosed_by_time', 'z_report_id IS NULL'),
    ];
    expect(both()).toEqual([0, 2]);
    const z = v17.prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, 5, '{}', '[]')").run();
    v17.prepare("UPDATE transactions SET z_report_id = ? WHERE reference = 'TX_A'").run(z.lastInsertRowid);
    expect(both()).toEqual([1, 1]);
  });
});
