/** The blocks a day's or a shift's report is made of: left-aligned text and the rows of one group's figures. */
import { UNSENT_NAMES, type TakingsTotals, type UnsentTotals } from '../ipc/contract.js';
import { formatGhs, parseSignedAmount } from '../money.js';
import { row } from './build-receipt.js';
import type { PrintBlock } from './print-document.js';

/** A report's amount as printed; a correction or a net can be below zero. */
export const signedMoney = (wire: string) => formatGhs(parseSignedAmount(wire));

export const leftText = (value: string, bold = false): PrintBlock => ({ kind: 'text', text: value, align: 'left', bold });

/** What the count and the failed count are called on this report (each report keeps its own words). */
export type FigureLabels = { count: string; failed: string };

/** The figures of one group (all networks, one network, the whole day): counts, then gross, fees and net. */
export function figureRows(t: TakingsTotals, labels: FigureLabels): PrintBlock[] {
  return [
    row(labels.count, String(t.count)),
    row('Paid', String(t.succeeded)),
    row(labels.failed, String(t.failed)),
    row('Gross', signedMoney(t.gross)),
    row('Fees', signedMoney(t.fees)),
    row('Net', signedMoney(t.net), true),
  ];
}

/** The payments that ended without the service's answer: each kind's count and amount, and what it means. */
export function unsentRows({ notSent, unconfirmed }: UnsentTotals): PrintBlock[] {
  return [
    row(`Not sent: ${notSent.count}`, signedMoney(notSent.amount)),
    leftText(UNSENT_NAMES.not_sent),
    row(`May have reached: ${unconfirmed.count}`, signedMoney(unconfirmed.amount)),
    leftText(UNSENT_NAMES.unconfirmed),
  ];
}
