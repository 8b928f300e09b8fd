/**
 * A shift's report as a print document (80 or 58 mm: label-and-value rows, which the printer and the
 * screen's print view lay out to the paper's width, as receipts are): who, when, the figures for all
 * networks and then each network, the payments still awaiting a result apart (overdue ones said so), those
 * that ended without the service's answer counted apart, and a line to sign. Pure: the core prints exactly what the screen shows.
 */
import type { PaymentView, ShiftReport, TakingsTotals } from '../ipc/contract.js';
import { dateTime, networkLabel } from '../display.js';
import { centred, maskMsisdn, money, row, SANDBOX_BANNER, shopHeader } from './build-receipt.js';
import { figureRows as reportFigureRows, leftText as text, unsentRows } from './figure-rows.js';
import type { PrintBlock, PrintDocument } from './print-document.js';
import type { ReceiptSettings } from './receipt-settings.js';

export type ShiftReportContext = {
  settings: ReceiptSettings;
  tillName: string;
  timeZone: string;
  /** When it is printed (ISO): an open shift's figures are as of then. */
  printedAt: string;
};

/** The figures of one group (all networks, or one). */
const figureRows = (t: TakingsTotals) => reportFigureRows(t, { count: 'Payments', failed: 'Not paid' });

function awaiting(pending: PaymentView[], timeZone: string): PrintBlock[] {
  const blocks: PrintBlock[] = [text(`Awaiting a result: ${pending.length}`, true)];
  if (pending.length === 0) return blocks;
  blocks.push(text('Not in the figures above until their result arrives.'));
  for (const p of pending) {
    blocks.push(row(`${maskMsisdn(p.msisdn)} ${networkLabel(p.network)}`, money(p.amount)));
    blocks.push(text(`  ${dateTime(p.createdAt, timeZone)}${p.overdue ? ' OVERDUE: check the dashboard' : ''}`));
  }
  return blocks;
}

/** Those that ended without the service's answer, apart from every figure (nothing when there are none). */
function unsent(report: ShiftReport): PrintBlock[] {
  const { notSent, unconfirmed } = report.unsent;
  if (notSent.count + unconfirmed.count === 0) return [];
  return [{ kind: 'rule' }, text('No answer from the service (not counted)', true), ...unsentRows(report.unsent)];
}

/** The shift's payments in the other environment (the till was switched during it), in none of the figures. */
export function otherEnvironmentNote(report: ShiftReport): string | null {
  if (report.otherEnvironment === 0) return null;
  const other = report.environment === 'live' ? 'TEST (sandbox)' : 'LIVE';
  const payments = report.otherEnvironment === 1 ? '1 payment' : `${report.otherEnvironment} payments`;
  return `${payments} in ${other} during this shift: not in these figures.`;
}

function otherEnvironment(report: ShiftReport): PrintBlock[] {
  const note = otherEnvironmentNote(report);
  return note ? [{ kind: 'rule' }, text(note)] : [];
}

export function buildShiftReport(report: ShiftReport, ctx: ShiftReportContext): PrintDocument {
  const { timeZone } = ctx;
  const status = report.closedAt ? 'CLOSED' : `OPEN: figures as of ${dateTime(ctx.printedAt, timeZone)}`;
  const sandbox: PrintBlock[] = report.environment === 'test' ? [{ kind: 'banner', text: SANDBOX_BANNER }] : [];
  const byNetwork = report.byNetwork.flatMap((n) => [{ kind: 'rule' } as const, text(networkLabel(n.network), true), ...figureRows(n)]);
  return {
    title: 'shift report',
    blocks: [
      ...sandbox,
      ...shopHeader(ctx.settings, ctx.tillName),
      { kind: 'rule' },
      { kind: 'heading', text: 'SHIFT REPORT', large: true },
      centred(status, true),
      row('Cashier', report.staffName),
      row('Till', ctx.tillName),
      row('Opened', dateTime(report.openedAt, timeZone)),
      row('Closed', report.closedAt ? dateTime(report.closedAt, timeZone) : 'still open'),
      ...(report.closedBy ? [row('Closed by', report.closedBy)] : []),
      { kind: 'rule' },
      text('All networks', true),
      ...figureRows(report.totals),
      ...byNetwork,
      { kind: 'rule' },
      ...awaiting(report.pending, timeZone),
      ...unsent(report),
      ...otherEnvironment(report),
      { kind: 'rule' },
      row('Printed', dateTime(ctx.printedAt, timeZone)),
      text('Signed: ______________________'),
      ...sandbox,
    ],
  };
}
