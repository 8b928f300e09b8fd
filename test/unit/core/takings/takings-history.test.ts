/** Takings from the rollup, CSV, history search and time zones, on a real SQLite file. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../electron/core/storage/database.js';
import { TransactionsStore, tillIdOfMerchantRef } from '../../../../electron/core/takings/transactions-store.js';
import { PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { Takings } from '../../../../electron/core/takings/takings.js';
import { csvCell, csvLocalDateTime } from '../../../../shared/csv.js';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import { History, dayBoundsMs } from '../../../../electron/core/history/history.js';
import { localDate } from '../../../../shared/local-date.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { openTempTillDb } from '../../../support/temp-till-db.js';

let db: Db;
let close: () => void;
beforeEach(() => {
  ({ db, close } = openTempTillDb('momo-takings-'));
});
afterEach(() => close());

const ULID = '01JD0000000000000000000000';
function tx(
  ref: string,
  status: 'SUCCESS' | 'FAILED',
  amount: string,
  fee: string,
  net: string,
  completedAt: string,
  till = 'TFRONT1',
  network = 'MTN',
  sandbox = false,
): WireTransaction {
  return {
    reference: ref,
    clientReference: `${till}.${ULID.slice(0, 20)}${ref.slice(-6).padStart(6, '0')}`,
    status,
    amount,
    fee,
    net,
    currency: 'GHS',
    customer: { msisdn: '233241234567', network },
    description: ref === 'TX_EVIL1' ? '=HYPERLINK("x")' : 'Sale, "big"',
    metadata: null,
    completedAt,
    ...(sandbox ? { sandbox: true as const } : {}),
  } as WireTransaction;
}

/** One of this till's payments, `created`, or `awaiting_customer` once it has a reference. */
function pay(repo: PaymentsRepo, i: number, env: 'test' | 'live', msisdn: string, at: number, reference: string | null = null) {
  const id = `01JD${String(i).padStart(22, '0')}`;
  repo.insert({
    id,
    request_id: `r${i}`,
    merchant_ref: `TFRONT1.${id}`,
    environment: env,
    state: 'created',
    amount: 100 + i,
    msisdn,
    msisdn_rev: [...msisdn].reverse().join(''),
    network: 'MTN',
    customer_name: null,
    description: '',
    request_body: '{}',
    till_id: 'TFRONT1',
    created_at: at,
    updated_at: at,
  });
  if (reference) repo.update(id, { reference, state: 'awaiting_customer' }, at);
  return id;
}

describe('takings', () => {
  it('sums a day and a range per network, per till and per day, in the till time zone, never mixing environments', () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    expect(store.insert('live', tx('TX_A00001', 'SUCCESS', '100.00', '1.95', '98.05', '2026-11-20T10:00:00Z'), 1, 0)).toBe(true);
    expect(store.insert('live', tx('TX_A00001', 'SUCCESS', '100.00', '1.95', '98.05', '2026-11-20T10:00:00Z'), 1, 0)).toBe(false); // repeat: no double count
    store.insert('live', tx('TX_A00002', 'FAILED', '50.00', '0.00', '0.00', '2026-11-20T11:00:00Z', 'TBACK02', 'TELECEL'), 2, 0);
    store.insert('live', tx('TX_A00003', 'SUCCESS', '10.00', '0.20', '9.80', '2026-11-21T23:30:00Z', 'TBACK02'), 3, 0);
    store.insert('test', tx('TX_T00001', 'SUCCESS', '999.00', '19.48', '979.52', '2026-11-20T10:00:00Z', 'TFRONT1', 'SANDBOX', true), 4, 0);
    const takings = new Takings(db);
    const day = takings.report('live', '2026-11-20', '2026-11-20', 'Africa/Accra');
    expect(day.totals).toEqual({ count: 2, succeeded: 1, failed: 1, gross: '100.00', fees: '1.95', net: '98.05' });
    expect(day.byNetwork).toEqual([
      { network: 'MTN', count: 1, succeeded: 1, failed: 0, gross: '100.00', fees: '1.95', net: '98.05' },
      { network: 'TELECEL', count: 1, succeeded: 0, failed: 1, gross: '0.00', fees: '0.00', net: '0.00' },
    ]);
    expect(day.byTill.map((t) => t.tillId)).toEqual(['TBACK02', 'TFRONT1']);
    const range = takings.report('live', '2026-11-19', '2026-11-22', 'Africa/Accra');
    expect(range.totals.gross).toBe('110.00');
    expect(range.byDay.map((d) => [d.date, d.count])).toEqual([
      ['2026-11-19', 0],
      ['2026-11-20', 2],
      ['2026-11-21', 1],
      ['2026-11-22', 0],
    ]);
    expect(takings.report('test', '2026-11-20', '2026-11-20', 'Africa/Accra').totals.gross).toBe('999.00');
    expect(() => takings.report('live', '2026-11-22', '2026-11-20', 'Africa/Accra')).toThrow(/start date/);
    expect(() => takings.report('live', '2024-01-01', '2026-11-20', 'Africa/Accra')).toThrow(/at most 366 days/);
  });

  it("counts this till's own TEST results under the network the cashier charged (the wire says SANDBOX); LIVE keeps the service's", () => {
    const repo = new PaymentsRepo(db);
    const store = new TransactionsStore(db, 'Africa/Accra');
    const own = tx('TX_S00001', 'SUCCESS', '20.00', '0.39', '19.61', '2026-11-20T10:00:00Z', 'TFRONT1', 'SANDBOX', true);
    const charged = { state: 'awaiting_customer', till_id: 'TFRONT1', created_at: 0, updated_at: 0 } as const;
    repo.insert(
      paymentRow('p-own', {
        ...charged,
        merchant_ref: own.clientReference as string,
        amount: 2000,
        msisdn: '233201234567',
        msisdn_rev: '765432102332',
        network: 'TELECEL',
      }),
    );
    store.insert('test', own, 1, 0);
    store.insert('test', tx('TX_S00002', 'FAILED', '5.00', '0.00', '0.00', '2026-11-20T11:00:00Z', 'TOTHER9', 'SANDBOX', true), 2, 0); // another till's
    // A LIVE payment charged as MTN but reported by the service as TELECEL counts as TELECEL.
    const live = tx('TX_L00001', 'SUCCESS', '10.00', '0.20', '9.80', '2026-11-20T12:00:00Z', 'TFRONT1', 'TELECEL');
    repo.insert(paymentRow('p-live', { ...charged, merchant_ref: live.clientReference as string, environment: 'live', amount: 1000 }));
    store.insert('live', live, 3, 0);
    const takings = new Takings(db);
    const networks = (env: 'test' | 'live') =>
      takings.report(env, '2026-11-20', '2026-11-20', 'Africa/Accra').byNetwork.map((n) => [n.network, n.count, n.gross]);
    expect(networks('test')).toEqual([
      ['SANDBOX', 1, '0.00'],
      ['TELECEL', 1, '20.00'],
    ]);
    expect(networks('live')).toEqual([['TELECEL', 1, '10.00']]);
    // The CSV counts each row under the same network as the screen, and keeps what the service said.
    const csvRows = new Takings(db)
      .exportCsv('test', '2026-11-20', '2026-11-20')
      .csv.trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(csvRows.map((r) => [r[3], r[7], r.at(-3)])).toEqual([
      ['TX_S00001', 'TELECEL', 'SANDBOX'],
      ['TX_S00002', 'SANDBOX', 'SANDBOX'],
    ]);
    const liveRow = new Takings(db).exportCsv('live', '2026-11-20', '2026-11-20').csv.trim().split('\r\n')[1]?.split(',');
    expect([liveRow?.[3], liveRow?.[7], liveRow?.at(-3)]).toEqual(['TX_L00001', 'TELECEL', 'TELECEL']); // LIVE: the service's network
    // A time-zone change rebuilds the rollup with the same rule.
    store.setTimeZone('Africa/Nairobi');
    expect(networks('test')).toEqual([
      ['SANDBOX', 1, '0.00'],
      ['TELECEL', 1, '20.00'],
    ]);
    expect(networks('live')).toEqual([['TELECEL', 1, '10.00']]);
  });

  it("reports this till's payments still without a result, per environment, and which have waited past the overdue limit", () => {
    const repo = new PaymentsRepo(db);
    const now = Date.parse('2026-11-20T12:00:00Z');
    const takings = new Takings(db, () => now);
    expect(takings.report('live', '2026-11-20', '2026-11-20', 'Africa/Accra').awaiting).toEqual({
      count: 0,
      amount: '0.00',
      overdue: 0,
      overdueAfterMinutes: 15,
    });
    pay(repo, 1, 'live', '233241230001', now - OVERDUE_AFTER_MS - 1, 'TX_OLD'); // GH₵1.01, waiting 15 min + 1 ms
    pay(repo, 2, 'live', '233241230002', now - OVERDUE_AFTER_MS, 'TX_EDGE'); // exactly 15 min: not yet overdue
    const uncertain = pay(repo, 3, 'live', '233241230003', now - 1000);
    repo.update(uncertain, { state: 'uncertain' }, now);
    const paid = pay(repo, 4, 'live', '233241230004', now - 2 * OVERDUE_AFTER_MS, 'TX_PAID');
    repo.update(paid, { state: 'success', fee: 2, net: 102, completed_at: now }, now);
    const declined = pay(repo, 5, 'live', '233241230005', now - 2 * OVERDUE_AFTER_MS, 'TX_DECL');
    repo.update(declined, { state: 'failed', completed_at: now }, now);
    const refused = pay(repo, 6, 'live', '233241230006', now - 2 * OVERDUE_AFTER_MS);
    repo.update(refused, { state: 'rejected' }, now);
    pay(repo, 7, 'test', '233241230007', now - 2 * OVERDUE_AFTER_MS, 'TX_TEST');
    // 1.01 + 1.02 + 1.03: whatever the dates asked for, and never the other environment's
    expect(takings.report('live', '2026-11-01', '2026-11-01', 'Africa/Accra').awaiting).toEqual({
      count: 3,
      amount: '3.06',
      overdue: 1,
      overdueAfterMinutes: 15,
    });
    expect(takings.report('test', '2026-11-20', '2026-11-20', 'Africa/Accra').awaiting).toEqual({
      count: 1,
      amount: '1.07',
      overdue: 1,
      overdueAfterMinutes: 15,
    });
  });

  it('recomputes local dates and the rollup when the time zone changes', () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    store.insert('live', tx('TX_B00001', 'SUCCESS', '10.00', '0.20', '9.80', '2026-11-21T23:30:00Z'), 1, 0); // 21st in Accra, 22nd in Nairobi
    const takings = new Takings(db);
    expect(takings.report('live', '2026-11-21', '2026-11-21', 'Africa/Accra').totals.count).toBe(1);
    store.setTimeZone('Africa/Nairobi');
    expect(takings.report('live', '2026-11-21', '2026-11-21', 'Africa/Nairobi').totals.count).toBe(0);
    expect(takings.report('live', '2026-11-22', '2026-11-22', 'Africa/Nairobi').totals.count).toBe(1);
  });

  it('exports CSV with quoting and formula-injection protection, for one environment only', () => {
    const store = new TransactionsStore(db, 'Africa/Accra');
    store.insert('live', tx('TX_EVIL1', 'SUCCESS', '5.00', '0.10', '4.90', '2026-11-20T09:00:00Z'), 1, 0);
    store.insert('live', tx('TX_C00002', 'FAILED', '7.00', '0.00', '0.00', '2026-11-20T10:00:00Z'), 2, 0);
    store.insert('test', tx('TX_T00009', 'SUCCESS', '1.00', '0.02', '0.98', '2026-11-20T10:00:00Z', 'TFRONT1', 'SANDBOX', true), 3, 0);
    const { filename, csv } = new Takings(db).exportCsv('live', '2026-11-20', '2026-11-20');
    expect(filename).toBe('momo-takings-live-2026-11-20_2026-11-20.csv');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'date,completed_at,completed_local,reference,merchant_ref,receipt_no,till,network,msisdn,status,amount,fee,net,description,service_network,cashier,settled_by_hand',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`'=HYPERLINK(""x"")`);
    // A UTF-8 byte-order mark first, and the local date and time a spreadsheet reads as one.
    expect(csv.startsWith('\ufeffdate,')).toBe(true);
    expect(lines[1]?.split(',')[2]).toBe('2026-11-20 09:00:00');
    expect(csvLocalDateTime(Date.parse('2026-11-24T13:03:00Z'), 'Europe/Paris')).toBe('2026-11-24 14:03:00');
    expect(lines[2]).toContain('FAILED,7.00,0.00,0.00,"Sale, ""big"""');
    expect(lines[2]).toContain(',024 123 4567,FAILED,'); // as people write it: text in a spreadsheet, never 2.33E+11
    expect(csv).not.toContain('TX_T00009');
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell(null)).toBe('');
  });
});

describe('takings by cashier', () => {
  /** Kofi (a paid and a failed sale), Ama (paid), one with nobody signed in, all on 20 Nov; Kofi again on 22 Nov. */
  function sales(): TransactionsStore {
    const store = new TransactionsStore(db, 'Africa/Accra');
    const by = (t: WireTransaction, id: string, name: string) => ({ ...t, metadata: { till: 'TFRONT1', cashierId: id, cashier: name } });
    store.insert('live', by(tx('TX_K00001', 'SUCCESS', '10.00', '0.20', '9.80', '2026-11-20T09:00:00Z'), 'S-KOFI', 'Kofi'), 1, 0);
    store.insert('live', by(tx('TX_K00002', 'FAILED', '4.00', '0.00', '0.00', '2026-11-20T09:30:00Z'), 'S-KOFI', 'Kofi'), 2, 0);
    store.insert('live', by(tx('TX_A00003', 'SUCCESS', '25.00', '0.49', '24.51', '2026-11-20T10:00:00Z'), 'S-AMA', 'Ama'), 3, 0);
    store.insert('live', tx('TX_N00004', 'SUCCESS', '1.00', '0.02', '0.98', '2026-11-20T11:00:00Z', 'TBACK02'), 4, 0); // nobody signed in
    store.insert('live', by(tx('TX_K00005', 'SUCCESS', '99.00', '1.93', '97.07', '2026-11-22T11:00:00Z'), 'S-KOFI', 'Kofi'), 5, 0); // outside
    return store;
  }
  const csvRows = (csv: string) =>
    csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','));

  it('sums the range by who started each payment (from the echoed metadata), and the CSV names them', () => {
    sales();
    const takings = new Takings(db);
    expect(takings.report('live', '2026-11-20', '2026-11-21', 'Africa/Accra').byCashier).toEqual([
      { cashierId: null, cashier: null, count: 1, succeeded: 1, failed: 0, gross: '1.00', fees: '0.02', net: '0.98' },
      { cashierId: 'S-AMA', cashier: 'Ama', count: 1, succeeded: 1, failed: 0, gross: '25.00', fees: '0.49', net: '24.51' },
      { cashierId: 'S-KOFI', cashier: 'Kofi', count: 2, succeeded: 1, failed: 1, gross: '10.00', fees: '0.20', net: '9.80' },
    ]);
    expect(takings.report('test', '2026-11-20', '2026-11-21', 'Africa/Accra').byCashier).toEqual([]);
    const rows = csvRows(takings.exportCsv('live', '2026-11-20', '2026-11-20').csv);
    expect(rows.map((r) => [r[3], r.at(-2)])).toEqual([
      ['TX_K00001', 'Kofi'],
      ['TX_K00002', 'Kofi'],
      ['TX_A00003', 'Ama'],
      ['TX_N00004', ''],
    ]);
  });

  it("filtered by a cashier: totals, networks, tills, days, awaiting and the CSV are that person's; byCashier stays everyone's", () => {
    sales();
    const repo = new PaymentsRepo(db);
    const waiting = (id: string, staff: string | null) =>
      repo.insert(paymentRow(id, { environment: 'live', state: 'awaiting_customer', staff_id: staff, staff_name: staff, created_at: 5 }));
    waiting('P-KOFI', 'S-KOFI');
    waiting('P-NOBODY', null);
    const takings = new Takings(db);
    const kofi = takings.report('live', '2026-11-20', '2026-11-22', 'Africa/Accra', 'S-KOFI');
    expect(kofi.totals).toEqual({ count: 3, succeeded: 2, failed: 1, gross: '109.00', fees: '2.13', net: '106.87' });
    expect(kofi.byNetwork.map((r) => [r.network, r.count])).toEqual([['MTN', 3]]);
    expect(kofi.byTill.map((r) => [r.tillId, r.count])).toEqual([['TFRONT1', 3]]);
    expect(kofi.byDay.map((r) => [r.date, r.count])).toEqual([
      ['2026-11-20', 2],
      ['2026-11-21', 0],
      ['2026-11-22', 1],
    ]);
    expect(kofi.awaiting).toMatchObject({ count: 1, amount: '1.00' });
    expect(kofi.byCashier).toHaveLength(3);

    const nobody = takings.report('live', '2026-11-20', '2026-11-22', 'Africa/Accra', null);
    expect(nobody.totals).toMatchObject({ count: 1, gross: '1.00' });
    expect(nobody.byTill.map((r) => r.tillId)).toEqual(['TBACK02']);
    expect(nobody.awaiting).toMatchObject({ count: 1 });
    expect(takings.report('live', '2026-11-20', '2026-11-22', 'Africa/Accra').totals.count).toBe(5); // everyone: the rollup

    const kofiCsv = takings.exportCsv('live', '2026-11-20', '2026-11-22', 'S-KOFI');
    expect(kofiCsv.filename).toBe('momo-takings-live-2026-11-20_2026-11-22-kofi.csv');
    expect(csvRows(kofiCsv.csv).map((r) => r[3])).toEqual(['TX_K00001', 'TX_K00002', 'TX_K00005']);
    const nobodyCsv = takings.exportCsv('live', '2026-11-20', '2026-11-22', null);
    expect(nobodyCsv.filename).toBe('momo-takings-live-2026-11-20_2026-11-22-nobody-signed-in.csv');
    expect(csvRows(nobodyCsv.csv).map((r) => r[3])).toEqual(['TX_N00004']);
  });
});

describe('history', () => {
  it("a merchantRef prefix search finds this environment's payments even behind more than MAX_MATCHES of the other's", () => {
    const repo = new PaymentsRepo(db);
    const base = Date.parse('2026-11-20T08:00:00Z');
    const testId = pay(repo, 1, 'test', '233241230001', base);
    // newer, same till prefix; one transaction (1 100 fsyncs would take seconds on a slow disk)
    db.transaction(() => {
      for (let i = 2; i < 1100; i += 1) pay(repo, i, 'live', '233241230002', base + i * 1000);
    })();
    const history = new History(db);
    const found = history.search('test', { query: 'TFRONT1.', page: 0, pageSize: 10 }, 'Africa/Accra');
    expect(found.items.map((p) => p.id)).toEqual([testId]);
    expect(found.total).toBe(1);
    expect(
      history.search('live', { query: 'TFRONT1.', page: 0, pageSize: 10 }, 'Africa/Accra').items.every((p) => p.environment === 'live'),
    ).toBe(true);
  });

  it('pages newest first, searches reference, merchantRef and the last digits of the phone, by date, per environment', () => {
    const repo = new PaymentsRepo(db);
    const base = Date.parse('2026-11-20T08:00:00Z');
    db.transaction(() => {
      for (let i = 0; i < 30; i += 1) pay(repo, i, 'live', `2332412300${String(i).padStart(2, '0')}`, base + i * 3_600_000, `TX_REF${i}`);
    })();
    pay(repo, 99, 'test', '233241230005', base);
    const history = new History(db);
    const first = history.search('live', { page: 0, pageSize: 10 }, 'Africa/Accra');
    expect(first.total).toBe(30);
    expect(first.items.map((p) => p.amount)).toEqual(['1.29', '1.28', '1.27', '1.26', '1.25', '1.24', '1.23', '1.22', '1.21', '1.20']);
    expect(history.search('live', { page: 2, pageSize: 10 }, 'Africa/Accra').items.at(-1)?.amount).toBe('1.00');
    expect(history.search('live', { query: '0005', page: 0, pageSize: 10 }, 'Africa/Accra').items.map((p) => p.msisdn)).toEqual([
      '233241230005',
    ]);
    expect(history.search('live', { query: 'TX_REF1', page: 0, pageSize: 50 }, 'Africa/Accra').total).toBe(11); // TX_REF1, TX_REF10..19
    const byRef = history.search('live', { query: first.items[0]!.merchantRef, page: 0, pageSize: 5 }, 'Africa/Accra');
    expect(byRef.items.map((p) => p.id)).toEqual([first.items[0]!.id]);
    expect(history.search('live', { date: '2026-11-21', page: 0, pageSize: 50 }, 'Africa/Accra').total).toBe(14); // 00:00..13:00 UTC on the 21st
    expect(history.search('test', { page: 0, pageSize: 50 }, 'Africa/Accra').items.map((p) => p.environment)).toEqual(['test']);
  });

  it('finds a number written any way people write it, and a reference in any letter case', () => {
    const repo = new PaymentsRepo(db);
    const base = Date.parse('2026-11-20T08:00:00Z');
    pay(repo, 1, 'live', '233241234567', base, 'TX_01JDABCDEF');
    pay(repo, 2, 'live', '233201234567', base + 1000, 'TX_01JDXYZ');
    const history = new History(db);
    const ids = (query: string) => history.search('live', { query, page: 0, pageSize: 10 }, 'Africa/Accra').items.map((p) => p.msisdn);
    for (const query of ['024 123 4567', '0241234567', '+233 24 123 4567', '+233241234567', '233241234567', '00233241234567']) {
      expect(ids(query), query).toEqual(['233241234567']);
    }
    expect(ids('4567')).toEqual(['233201234567', '233241234567']);
    expect(ids('tx_01jdabc')).toEqual(['233241234567']);
    expect(ids('Tx_01JdXy')).toEqual(['233201234567']);
  });

  it('flags a payment still without a result after the overdue limit, and only such a payment', () => {
    const repo = new PaymentsRepo(db);
    const now = Date.parse('2026-11-20T12:00:00Z');
    const old = pay(repo, 1, 'live', '233241230001', now - OVERDUE_AFTER_MS - 1, 'TX_OLD');
    pay(repo, 2, 'live', '233241230002', now - OVERDUE_AFTER_MS, 'TX_EDGE'); // exactly the limit: not yet
    const paid = pay(repo, 3, 'live', '233241230003', now - 2 * OVERDUE_AFTER_MS, 'TX_PAID');
    repo.update(paid, { state: 'success', fee: 2, net: 101, completed_at: now }, now);
    const items = new History(db, () => now).search('live', { page: 0, pageSize: 10 }, 'Africa/Accra').items;
    expect(items.filter((p) => p.overdue).map((p) => p.id)).toEqual([old]);
    expect(items.find((p) => p.id === paid)).not.toHaveProperty('overdue');
  });

  it('local dates and day bounds follow the time zone', () => {
    expect(localDate(Date.parse('2026-11-21T23:30:00Z'), 'Africa/Accra')).toBe('2026-11-21');
    expect(localDate(Date.parse('2026-11-21T23:30:00Z'), 'Africa/Nairobi')).toBe('2026-11-22');
    expect(dayBoundsMs('2026-11-21', 'Africa/Accra')).toEqual([Date.parse('2026-11-21T00:00:00Z'), Date.parse('2026-11-22T00:00:00Z')]);
    expect(dayBoundsMs('2026-11-21', 'Africa/Nairobi')).toEqual([Date.parse('2026-11-20T21:00:00Z'), Date.parse('2026-11-21T21:00:00Z')]);
    expect(dayBoundsMs('2026-03-29', 'Europe/London')).toEqual([Date.parse('2026-03-29T00:00:00Z'), Date.parse('2026-03-29T23:00:00Z')]);
  });

  it('reads the till of a payment from its merchantRef', () => {
    expect(tillIdOfMerchantRef('TFRONT1.01JD0000000000000000000000')).toBe('TFRONT1');
    expect(tillIdOfMerchantRef('order-17')).toBe('other');
    expect(tillIdOfMerchantRef(null)).toBe('other');
  });
});
