/**
 * A Z report's CSV: one row per transaction it counted (read by reference at export, day-rows.ts), then one
 * row per payment still awaiting its result at the close (PENDING or OVERDUE, as the screen and the paper list
 * them: counted_in_totals=no, never in any sum), then one per payment that ended without the service's
 * acknowledgement (NOT_SENT or UNCONFIRMED, the latest the report lists; counted_in_totals=no), then its summary
 * rows (totals, by cashier, by till, by network, and the two counted apart: their amount in `gross`, never taken). Numbers are written `024 123 4567`, which spreadsheets keep as text; cells go through
 * shared/csv.ts' csvCell (quoting, no formulas). local_date and local_time (the till's time zone, e.g.
 * 2026-11-22 and 14:05:09) are what a spreadsheet reads as a date and a time; completed_at stays UTC ISO.
 */
import {
  correctedSinceOf,
  reportScopeOf,
  UNSENT_NAMES,
  type DayAwaitingLine,
  type DayReport,
  type DayUnsentLine,
  type TakingsTotals,
} from '../../../shared/ipc/contract.js';
import { tillIdOfMerchantRef } from '../takings/index.js';
import { formatAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type { DayRow } from './day-report.js';
import { localDate } from '../../../shared/local-date.js';
import { csvCell, csvFile, csvLocalDateAndTime } from '../../../shared/csv.js';
import { formatReceiptNo } from '../../../shared/receipt-number.js';

/**
 * One transaction's cells as a Z freezes them (the first 14 columns, the form stored since migration 11; the
 * export adds the rest).
 */
export type CsvLine = Array<string | null>;

/** A stored row of a Z as the export reads it: its line, and the receipt number of its payment (PAID only). */
export type ZCsvRow = { line: CsvLine; receiptNo: number | null };

const TRANSACTION_COLUMNS =
  'completed_at,reference,merchant_ref,till,cashier,network,msisdn,status,amount,fee,net,description,arrived_after_close,settled_by_hand,' +
  'receipt_no,counted_in_totals,local_date,local_time';
const SUMMARY_COLUMNS = 'summary,name,count,paid,failed,gross,fees,net';

/**
 * A correction (figures a Z counted for a hand settlement the service then changed) is written with its figures
 * negative, status CORRECTION; the service's figures counted in their place, status RECOUNT.
 */
export function csvLine(row: DayRow & { late: boolean }, report: DayReport): CsvLine {
  const till = report.byTill.find((t) => t.tillId === row.till_id);
  const sign = row.correction ? -1 : 1;
  return [
    new Date(row.completed_at).toISOString(),
    row.reference,
    row.client_reference,
    till?.tillName ?? row.till_id,
    row.staff_name,
    row.network,
    displayMsisdn(row.msisdn),
    row.correction ? 'CORRECTION' : row.recount ? 'RECOUNT' : row.status,
    formatAmount(sign * row.amount),
    formatAmount(sign * row.fee),
    formatAmount(sign * row.net),
    row.description,
    row.late ? 'yes' : '',
    row.settled_by_hand === 1 ? 'yes' : '',
  ];
}

const summary = (what: string, name: string | null, t: TakingsTotals): CsvLine => [
  what,
  name,
  String(t.count),
  String(t.succeeded),
  String(t.failed),
  t.gross,
  t.fees,
  t.net,
];

/** A transaction row as exported: its frozen line, its receipt number, counted, and when it completed (local). */
function exported(row: ZCsvRow, timeZone: string): CsvLine {
  const completed = row.line[0];
  const [date, time] = completed ? csvLocalDateAndTime(Date.parse(completed), timeZone) : [null, null];
  return [...row.line, row.receiptNo === null ? null : formatReceiptNo(row.receiptNo), 'yes', date, time];
}

/**
 * A payment awaiting its result at the close, as the report lists it: status PENDING or OVERDUE, its amount
 * kept but counted_in_totals=no (it is in no total, no fee nor net yet); local date and time of its start.
 */
function awaitingRow(a: DayAwaitingLine, report: DayReport): CsvLine {
  const [date, time] = csvLocalDateAndTime(Date.parse(a.startedAt), report.timeZone);
  const tillId = tillIdOfMerchantRef(a.merchantRef);
  // Always this till's own payment: named as Settings name this till, even when no result of it was counted.
  const own = report.receivedBy?.tillId === tillId ? report.receivedBy.tillName : null;
  const till = own ?? report.byTill.find((t) => t.tillId === tillId)?.tillName;
  const status = a.status === 'overdue' ? 'OVERDUE' : 'PENDING';
  const cashier = a.cashier ?? '(nobody signed in)';
  return [
    null,
    null,
    a.merchantRef,
    till ?? tillId,
    cashier,
    a.network,
    a.msisdn,
    status,
    a.amount,
    null,
    null,
    null,
    null,
    null,
    null,
    'no',
    date,
    time,
  ];
}

/** A payment that ended without the service's acknowledgement: never in a sum; local date and time of its start. */
function unsentRow(u: DayUnsentLine, report: DayReport): CsvLine {
  const [date, time] = csvLocalDateAndTime(Date.parse(u.startedAt), report.timeZone);
  const till = report.receivedBy?.tillId === tillIdOfMerchantRef(u.merchantRef) ? report.receivedBy.tillName : null;
  const status = u.state === 'not_sent' ? 'NOT_SENT' : 'UNCONFIRMED';
  const line: CsvLine = [null, null, u.merchantRef, till ?? tillIdOfMerchantRef(u.merchantRef), u.cashier ?? '(nobody signed in)'];
  return [...line, u.network, u.msisdn, status, u.amount, null, null, null, null, null, null, 'no', date, time];
}

/** A till's name as a file name may hold it: letters and digits, the rest one dash. */
const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

/**
 * The file for a stored Z (`rows`: its transactions in order, day-rows.ts): its name says the number, the till
 * it was closed at (every till numbers its own Zs from Z-0001) and TEST or LIVE; its first summary row says whose
 * figures they are. `tillName`: this till's, for a Z made before reports named their till.
 */
export function zCsv(report: DayReport, rows: Iterable<ZCsvRow>, tillName: string): { filename: string; csv: string } {
  const till = report.receivedBy ? fileSafe(report.receivedBy.tillName) || report.receivedBy.tillId : fileSafe(tillName);
  const summaries: CsvLine[] = [
    ['scope', reportScopeOf(report, tillName), null, null, null, null, null, null],
    summary('total', `${report.label} ${report.environment.toUpperCase()}`, report.totals),
    ...correctedSinceOf(report).map((c): CsvLine => ['corrected', c.name, String(c.count), null, null, c.gross, null, c.net]),
    ...report.byCashier.map((c) => summary('cashier', c.cashier ?? '(nobody signed in)', c)),
    ...report.byTill.map((t) => summary('till', t.tillName ?? t.tillId, t)),
    ...report.byNetwork.map((n) => summary('network', n.network, n)),
    ['not counted', UNSENT_NAMES.not_sent, String(report.unsent.notSent.count), null, null, report.unsent.notSent.amount, null, null],
    [
      'not counted',
      UNSENT_NAMES.unconfirmed,
      String(report.unsent.unconfirmed.count),
      null,
      null,
      report.unsent.unconfirmed.amount,
      null,
      null,
    ],
  ];
  const text = [TRANSACTION_COLUMNS];
  for (const row of rows) text.push(cells(exported(row, report.timeZone)));
  for (const a of report.awaiting) text.push(cells(awaitingRow(a, report)));
  for (const u of report.unsentLines) text.push(cells(unsentRow(u, report)));
  text.push('', SUMMARY_COLUMNS, ...summaries.map(cells));
  const day = localDate(Date.parse(report.at), report.timeZone);
  const name = ['momo', report.label, till, report.environment.toUpperCase(), day].filter(Boolean).join('-');
  return { filename: `${name}.csv`, csv: csvFile(text) };
}

/** A figure such as -12.50 is written as it is: a spreadsheet reads it as a number, and it cannot be a formula. */
const FIGURE = /^-?[0-9]+(\.[0-9]{2})?$/;
const cells = (line: CsvLine) => line.map((cell) => (cell !== null && FIGURE.test(cell) ? cell : csvCell(cell))).join(',');
