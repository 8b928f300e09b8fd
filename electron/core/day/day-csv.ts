/**
 * A Z report's CSV: one row per transaction it counted (frozen with it at the close) and then its
 * summary rows (totals, by cashier, by till, by network). Numbers are written `024 123 4567`, which
 * spreadsheets keep as text; cells go through shared/csv.ts' csvCell (quoting, no formulas).
 */
import type { DayReport, TakingsTotals } from '../../../shared/ipc/contract.js';
import { formatAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type { DayRow } from './day-report.js';
import { localDate } from '../../../shared/local-date.js';
import { csvCell, csvFile } from '../../../shared/csv.js';

/** One transaction's cells, in TRANSACTION_COLUMNS order. */
export type CsvLine = Array<string | null>;

const TRANSACTION_COLUMNS =
  'completed_at,reference,merchant_ref,till,cashier,network,msisdn,status,amount,fee,net,description,arrived_after_close,settled_by_hand';
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

/** The file for a stored Z: its name says the number and TEST or LIVE. */
export function zCsv(report: DayReport, lines: CsvLine[]): { filename: string; csv: string } {
  const rows: CsvLine[] = [
    summary('total', `${report.label} ${report.environment.toUpperCase()}`, report.totals),
    ...report.byCashier.map((c) => summary('cashier', c.cashier ?? '(nobody signed in)', c)),
    ...report.byTill.map((t) => summary('till', t.tillName ?? t.tillId, t)),
    ...report.byNetwork.map((n) => summary('network', n.network, n)),
  ];
  const text = [TRANSACTION_COLUMNS, ...lines.map(cells), '', SUMMARY_COLUMNS, ...rows.map(cells)];
  const day = localDate(Date.parse(report.at), report.timeZone);
  return { filename: `momo-${report.label}-${report.environment.toUpperCase()}-${day}.csv`, csv: csvFile(text) };
}

/** A figure such as -12.50 is written as it is: a spreadsheet reads it as a number, and it cannot be a formula. */
const FIGURE = /^-?[0-9]+(\.[0-9]{2})?$/;
const cells = (line: CsvLine) => line.map((cell) => (cell !== null && FIGURE.test(cell) ? cell : csvCell(cell))).join(',');
