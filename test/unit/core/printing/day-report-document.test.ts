/** The X and Z reports on paper: what they say, TEST marked at both ends, laid out for 80 mm and 58 mm. */
import { describe, expect, it } from 'vitest';
import { encodeEscPos } from '../../../../electron/core/printing/escpos.js';
import type { DayReport } from '../../../../shared/ipc/contract.js';
import { buildDayReportDocument, TEST_REPORT_BANNER } from '../../../../shared/receipt/build-day-report.js';
import { columnsFor, PAPER_WIDTHS } from '../../../../shared/receipt/print-document.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';
import { decodeEscPos, plainLines } from '../../../support/escpos-decoder.js';

const totals = { count: 2, succeeded: 1, failed: 1, gross: '1234.50', fees: '24.07', net: '1210.43' };
const line = {
  reference: 'TX_F',
  merchantRef: 'TFRONT1.01',
  completedAt: '2026-11-22T15:00:04.000Z',
  startedAt: null,
  msisdn: '024 123 4501',
};
const report: DayReport = {
  environment: 'test',
  label: 'Z-0007',
  kind: 'z',
  number: 7,
  openedAt: '2026-11-21T18:00:00.000Z',
  at: '2026-11-22T18:00:00.000Z',
  closedBy: 'Mary Owusu-Ansah',
  timeZone: 'Africa/Accra',
  totals,
  byCashier: [{ cashierId: 'k', cashier: 'Kofi', ...totals }],
  byTill: [{ tillId: 'TFRONT1', tillName: 'Front counter', ...totals }],
  byNetwork: [{ network: 'MTN', ...totals }],
  settledByHand: 1,
  failures: [
    {
      ...line,
      status: 'FAILED',
      amount: '3.00',
      till: 'Front counter',
      cashier: 'Kofi',
      reason: 'Settled by hand: no money',
      settledByHand: true,
    },
  ],
  arrivedAfterClose: [],
  corrections: [
    {
      merchantRef: 'TFRONT1.02',
      msisdn: '024 123 4502',
      amount: '12.50',
      hand: 'PAID',
      handBy: 'Mary',
      countedIn: 'Z-0006',
      service: 'FAILED',
      gross: '-12.50',
      fees: '-0.25',
      net: '-12.25',
    },
  ],
  awaiting: [
    {
      paymentId: 'p9',
      merchantRef: 'TFRONT1.09',
      startedAt: '2026-11-22T17:00:00.000Z',
      msisdn: '024 123 4509',
      amount: '5.00',
      network: 'MTN',
      cashier: 'Kofi',
      status: 'overdue',
      whatToDo: 'Overdue: find it on the dashboard, replay its webhook, or settle it by hand.',
    },
  ],
  unsent: { notSent: { count: 1, amount: '10.00' }, unconfirmed: { count: 1, amount: '7.50' } },
  unsentLines: [
    {
      merchantRef: 'TFRONT1.10',
      startedAt: '2026-11-22T17:10:00.000Z',
      endedAt: '2026-11-22T17:11:00.000Z',
      msisdn: '024 123 4510',
      amount: '10.00',
      network: 'MTN',
      cashier: 'Kofi',
      state: 'not_sent',
    },
    {
      merchantRef: 'TFRONT1.11',
      startedAt: '2026-11-22T17:20:00.000Z',
      endedAt: '2026-11-22T17:21:00.000Z',
      msisdn: '024 123 4511',
      amount: '7.50',
      network: 'MTN',
      cashier: 'Kofi',
      state: 'unconfirmed',
    },
  ],
  receivedBy: { tillId: 'TFRONT1', tillName: 'Front counter' },
  otherTills: [],
  earlierToday: null,
};

describe('a day report on paper', () => {
  it('says what it is, its figures, its lists, and TEST at the top and the bottom', () => {
    const doc = buildDayReportDocument(report, DEFAULT_RECEIPT_SETTINGS, 'Front counter');
    expect(doc.title).toBe('Z report Z-0007');
    expect(doc.blocks[0]).toEqual({ kind: 'banner', text: TEST_REPORT_BANNER });
    expect(doc.blocks.at(-1)).toEqual({ kind: 'banner', text: TEST_REPORT_BANNER });
    const lines = plainLines(decodeEscPos(encodeEscPos([doc], 80)).documents[0]!);
    expect(lines).toEqual(expect.arrayContaining(['Z REPORT Z-0007', 'By cashier', 'Kofi', 'Front counter', 'By network']));
    const joined = lines.join('\n');
    expect(joined).toMatch(/Net\s+GHS 1,210\.43/);
    expect(joined).toMatch(/Settled by hand\s+1/);
    // Numbers masked as on receipts: the first three and last four digits, never the whole.
    expect(joined).toMatch(/024 \*\*\* 4501 \(by hand\)/);
    expect(joined).toMatch(/024 \*\*\* 4502 by hand PAID\s+-GHS 12\.25/);
    expect(joined).toMatch(/OVERDUE 024 \*\*\* 4509/);
    // Ended without the service's answer: apart from the totals, in their own words.
    expect(joined).toMatch(/No answer from the service \(not counted\)\nNot sent: 1\s+GHS 10\.00\nNot sent: no prompt went out/);
    expect(joined).toMatch(/May have reached: 1\s+GHS 7\.50\nMay have reached the service: counted when its\s+result comes/);
    expect(joined).toMatch(/NOT SENT 024 \*\*\* 4510\s+GHS 10\.00/);
    expect(joined).toMatch(/MAY HAVE REACHED 024 \*\*\* 4511\s+GHS 7\.50/);
    expect(joined).not.toMatch(/123 45/);
    expect(buildDayReportDocument({ ...report, environment: 'live' }, DEFAULT_RECEIPT_SETTINGS, 'Front counter').blocks[0]?.kind).not.toBe(
      'banner',
    );
  });

  it.each(PAPER_WIDTHS)('fits %i mm paper: no printed line is wider than the paper', (paper) => {
    const printed = decodeEscPos(encodeEscPos([buildDayReportDocument(report, DEFAULT_RECEIPT_SETTINGS, 'Front counter')], paper))
      .documents[0]!;
    for (const l of printed.lines) expect(l.text.length * (l.large ? 2 : 1)).toBeLessThanOrEqual(columnsFor(paper));
  });
});
