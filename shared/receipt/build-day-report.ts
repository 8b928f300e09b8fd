/**
 * An X or Z report as a print document, for 80 mm or 58 mm paper alike (a row's value goes under its
 * label when both do not fit the paper's width). A TEST report says so at the top and the bottom. Customers'
 * numbers are masked as on receipts (024 ••• 4567): these slips lie around the counter.
 * Pure: the core prints exactly what the screen shows.
 */
import { closeWarningsOf, correctedSinceOf, failuresCountOf, reportScopeOf, type DayReport, type TakingsTotals } from '../ipc/contract.js';
import { dateTime, networkLabel } from '../display.js';
import { maskMsisdn, row, shopHeader } from './build-receipt.js';
import { figureRows, leftText as text, signedMoney as money, unsentRows } from './figure-rows.js';
import type { PrintBlock, PrintDocument } from './print-document.js';
import type { ReceiptSettings } from './receipt-settings.js';

export const TEST_REPORT_BANNER = 'TEST — SANDBOX, NO MONEY MOVED';

const section = (title: string): PrintBlock[] => [{ kind: 'rule' }, { kind: 'text', text: title, align: 'center', bold: true }];

/** One line per group: its name bold, then paid count, gross and net on one row. */
function breakdown(title: string, groups: Array<TakingsTotals & { name: string }>): PrintBlock[] {
  if (groups.length === 0) return [];
  return [
    ...section(title),
    ...groups.flatMap((g) => [
      text(g.name, true),
      row(`${g.succeeded} paid, ${g.failed} failed`, `${money(g.gross)} / net ${money(g.net)}`),
    ]),
  ];
}

function lists(report: DayReport): PrintBlock[] {
  const when = (iso: string) => dateTime(iso, report.timeZone);
  const blocks: PrintBlock[] = [];
  const failures = failuresCountOf(report);
  if (failures) blocks.push(...section(`Failures (${failures})`));
  // Only the latest are listed (FAILURES_LISTED): the paper says where the others are.
  if (failures > report.failures.length) blocks.push(text(`The latest ${report.failures.length}; all ${failures} are in the CSV.`));
  for (const f of report.failures) {
    blocks.push(row(`${when(f.completedAt)} ${maskMsisdn(f.msisdn)}${f.settledByHand ? ' (by hand)' : ''}`, money(f.amount)));
    blocks.push(text(`${f.till}${f.cashier ? `, ${f.cashier}` : ''}${f.reason ? `, ${f.reason}` : ''}`));
  }
  if (report.arrivedAfterClose.length) blocks.push(...section(`Arrived after close (${report.arrivedAfterClose.length}, counted above)`));
  for (const l of report.arrivedAfterClose) {
    blocks.push(
      row(`${l.status === 'SUCCESS' ? 'PAID' : 'FAILED'} ${maskMsisdn(l.msisdn)}${l.settledByHand ? ' (by hand)' : ''}`, money(l.amount)),
    );
    blocks.push(
      text(
        `${l.startedAt ? `started ${when(l.startedAt)}` : `completed ${when(l.completedAt)}`}${l.closedDay ? `, day of ${l.closedDay}` : ''}`,
      ),
    );
  }
  if (report.corrections.length) blocks.push(...section(`Corrections (${report.corrections.length}): hand results changed`));
  for (const c of report.corrections) {
    blocks.push(row(`${maskMsisdn(c.msisdn)} by hand ${c.hand}`, money(c.net)));
    blocks.push(text(`counted in ${c.countedIn ?? 'an earlier Z'}; the service says ${c.service === 'SUCCESS' ? 'PAID' : 'NOT PAID'}`));
  }
  if (report.awaiting.length) blocks.push(...section(`Awaiting a result (${report.awaiting.length}, not counted)`));
  for (const a of report.awaiting) {
    blocks.push(row(`${a.status.toUpperCase()} ${maskMsisdn(a.msisdn)}`, money(a.amount), true));
    blocks.push(text(`${when(a.startedAt)}, ref ${a.merchantRef}`), text(a.whatToDo));
  }
  const { notSent, unconfirmed } = report.unsent;
  if (notSent.count + unconfirmed.count) {
    blocks.push(...section('No answer from the service (not counted)'), ...unsentRows(report.unsent));
  }
  for (const u of report.unsentLines) {
    blocks.push(row(`${u.state === 'not_sent' ? 'NOT SENT' : 'MAY HAVE REACHED'} ${maskMsisdn(u.msisdn)}`, money(u.amount), true));
    blocks.push(text(`${when(u.startedAt)}, ref ${u.merchantRef}`));
  }
  return blocks;
}

export function buildDayReportDocument(report: DayReport, settings: ReceiptSettings, tillName: string): PrintDocument {
  const test: PrintBlock[] = report.environment === 'test' ? [{ kind: 'banner', text: TEST_REPORT_BANNER }] : [];
  const title = report.kind === 'z' ? `Z REPORT ${report.label}` : 'X REPORT';
  const head: PrintBlock[] = [
    { kind: 'heading', text: title, large: true },
    { kind: 'text', text: report.kind === 'z' ? 'Day closed' : 'Since the last close: nothing is closed', align: 'center', bold: false },
    row('From', report.openedAt ? dateTime(report.openedAt, report.timeZone) : '—'),
    row(report.kind === 'z' ? 'Closed' : 'Printed', dateTime(report.at, report.timeZone)),
  ];
  if (report.closedBy) head.push(row('Closed by', report.closedBy));
  head.push(row('Till', report.receivedBy?.tillName || tillName));
  // Every till's report sums the whole shop's results: the paper says whose copy it is, and what else to know.
  head.push(text(reportScopeOf(report, tillName), true));
  for (const warning of closeWarningsOf(report, (iso) => dateTime(iso, report.timeZone))) head.push(text(warning));
  return {
    title: report.kind === 'z' ? `Z report ${report.label}` : 'X report',
    blocks: [
      ...test,
      ...shopHeader(settings, tillName),
      { kind: 'rule' },
      ...head,
      ...section('Totals'),
      ...figureRows(report.totals, { count: 'Count', failed: 'Failed' }),
      ...correctedSinceOf(report).map((c) => text(c.text, true)),
      ...(report.settledByHand ? [row('Settled by hand', String(report.settledByHand))] : []),
      ...breakdown(
        'By cashier',
        report.byCashier.map((c) => ({ ...c, name: c.cashier ?? 'Nobody signed in' })),
      ),
      ...breakdown(
        'By till',
        report.byTill.map((t) => ({ ...t, name: t.tillName ?? t.tillId })),
      ),
      ...breakdown(
        'By network',
        report.byNetwork.map((n) => ({ ...n, name: networkLabel(n.network) })),
      ),
      ...lists(report),
      ...test,
    ],
  };
}
