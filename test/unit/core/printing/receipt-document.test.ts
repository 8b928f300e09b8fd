/** What a receipt says, before any printer: one set of documents for the screen, the PDF and the network printer. */
import { describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../shared/ipc/contract.js';
import {
  buildReceipt,
  maskMsisdn,
  NOT_PAID_BANNER,
  SANDBOX_BANNER,
  type ReceiptContext,
} from '../../../../shared/receipt/build-receipt.js';
import type { PrintBlock, PrintDocument } from '../../../../shared/receipt/print-document.js';
import { DEFAULT_RECEIPT_SETTINGS } from '../../../../shared/receipt/receipt-settings.js';

const payment: PaymentView = {
  id: 'p1',
  merchantRef: 'T1.01',
  environment: 'live',
  state: 'success',
  amount: '1234.50',
  fee: '24.07',
  net: '1210.43',
  currency: 'GHS',
  msisdn: '233241234567',
  network: 'MTN',
  customerName: 'Kofi Mensah',
  description: '',
  reference: 'TX_ABC',
  tillId: 'T1',
  startedBy: null,
  errorMessage: null,
  stoppedWaiting: false,
  settledByHand: null,
  receiptNo: 'R-000123',
  createdAt: '2026-11-22T15:00:00.000Z',
  updatedAt: '2026-11-22T15:00:05.000Z',
  completedAt: '2026-11-22T15:00:04.000Z',
};
const ctx: ReceiptContext = { settings: DEFAULT_RECEIPT_SETTINGS, tillName: 'Front counter', timeZone: 'Africa/Accra', reprintedAt: null };

const texts = (doc: PrintDocument) =>
  doc.blocks.map((b: PrintBlock) =>
    b.kind === 'row' ? `${b.label}: ${b.value}` : 'text' in b ? b.text : b.kind === 'qr' ? `QR ${b.value}` : '—',
  );

describe('a receipt', () => {
  it('masks the number: the first three and last four digits only', () => {
    expect(maskMsisdn('233241234567')).toBe('024 ••• 4567');
    expect(maskMsisdn('garbage')).toBe('•••');
  });

  it('LIVE PAID: the till name heads it until the shop has a name; amount, masked number, reference and QR, no fee, no customer name', () => {
    const [doc, ...rest] = buildReceipt(payment, ctx);
    expect(rest).toEqual([]);
    const lines = texts(doc!);
    expect(lines[0]).toBe('Front counter');
    expect(lines).toEqual(
      expect.arrayContaining(['PAID', 'CUSTOMER COPY', 'Amount: GH₵1,234.50', 'Customer: 024 ••• 4567', 'Reference: TX_ABC', 'QR TX_ABC']),
    );
    expect(lines).toContain('Date: 22 Nov 2026, 15:00:04');
    expect(lines.join('\n')).not.toMatch(/Fee|SANDBOX|REPRINT|Kofi|Cashier/);
  });

  it('a payment settled by hand says so on the receipt and on the NOT PAID slip, and how the service answered later', () => {
    const hand = {
      outcome: 'paid',
      reference: 'TX_ABC',
      fee: null,
      note: 'seen',
      by: 'Mary',
      at: '2026-11-22T15:20:00.000Z',
      check: null,
    } as const;
    expect(texts(buildReceipt({ ...payment, settledByHand: hand }, ctx)[0]!)).toContain('Settled: By hand (Mary)');
    const confirmed = buildReceipt({ ...payment, settledByHand: { ...hand, check: 'confirmed' } }, ctx)[0]!;
    expect(texts(confirmed)).toContain('Settled: By hand (Mary), confirmed by the service');
    const slip = buildReceipt({ ...payment, state: 'failed', settledByHand: { ...hand, outcome: 'not_paid', reference: null } }, ctx)[0]!;
    expect(texts(slip)).toEqual(expect.arrayContaining(['NOT PAID', 'Settled: By hand (Mary)']));
    const corrected = buildReceipt({ ...payment, settledByHand: { ...hand, outcome: 'not_paid', check: 'overridden' } }, ctx)[0]!;
    expect(texts(corrected)).toContain('Settled: By the service (it corrected a settle by hand by Mary)');
    expect(texts(buildReceipt(payment, ctx)[0]!).join('\n')).not.toMatch(/Settled/);
  });

  it('the time is the till time zone, a cashier is named when the payment has one', () => {
    const [doc] = buildReceipt(payment, { ...ctx, timeZone: 'Europe/Paris', cashierName: 'Ama' });
    expect(texts(doc!)).toEqual(expect.arrayContaining(['Date: 22 Nov 2026, 16:00:04', 'Cashier: Ama']));
  });

  it('the merchant copy follows with the fee and what the shop receives', () => {
    const docs = buildReceipt(payment, { ...ctx, settings: { ...DEFAULT_RECEIPT_SETTINGS, merchantCopy: true } });
    expect(docs.map((d) => d.title)).toEqual(['customer receipt', 'merchant copy']);
    expect(texts(docs[1]!)).toEqual(expect.arrayContaining(['MERCHANT COPY', 'Fee: GH₵24.07', 'You receive: GH₵1,210.43']));
  });

  it('TEST: the sandbox banner first and last; a reprint says when', () => {
    const [doc] = buildReceipt({ ...payment, environment: 'test' }, { ...ctx, reprintedAt: '2026-11-23T09:30:00.000Z' });
    expect(doc!.blocks[0]).toEqual({ kind: 'banner', text: SANDBOX_BANNER });
    expect(doc!.blocks.at(-1)).toEqual({ kind: 'banner', text: SANDBOX_BANNER });
    expect(texts(doc!)).toContain('REPRINT 23 Nov 2026, 09:30:00');
    expect(doc!.title).toBe('customer receipt (reprint)');
  });

  it('NOT PAID: a slip, never a receipt: warning banners, no QR, no copy line, no merchant copy', () => {
    const docs = buildReceipt(
      { ...payment, state: 'failed', fee: null, net: null },
      { ...ctx, settings: { ...DEFAULT_RECEIPT_SETTINGS, merchantCopy: true } },
    );
    expect(docs).toHaveLength(1);
    const lines = texts(docs[0]!);
    expect(lines.filter((l) => l === NOT_PAID_BANNER)).toHaveLength(2);
    expect(lines).toEqual(expect.arrayContaining(['NOT PAID', 'Amount asked: GH₵1,234.50']));
    expect(lines.join('\n')).not.toMatch(/^PAID$|COPY|QR |Thank you/m);
  });

  it('the shop header: name, address lines, phone, the tax id with its label', () => {
    const settings = { ...DEFAULT_RECEIPT_SETTINGS, shopName: 'Ama Stores', address: 'Osu\nAccra', phone: '030 123 4567' };
    const [doc] = buildReceipt(payment, { ...ctx, settings: { ...settings, taxIdKind: 'vat', taxId: 'C0012345678' } });
    expect(texts(doc!).slice(0, 5)).toEqual(['Ama Stores', 'Osu', 'Accra', 'Tel 030 123 4567', 'VAT No. C0012345678']);
  });

  it('PAID: the title RECEIPT, then the receipt number large, on both copies; a NOT PAID slip has neither, even for a payment once numbered', () => {
    const docs = buildReceipt(payment, { ...ctx, settings: { ...DEFAULT_RECEIPT_SETTINGS, merchantCopy: true } });
    for (const doc of docs) {
      const at = doc.blocks.findIndex((b) => b.kind === 'heading' && b.text === 'RECEIPT');
      expect(doc.blocks[at]).toEqual({ kind: 'heading', text: 'RECEIPT', large: true });
      expect(doc.blocks[at + 1]).toEqual({ kind: 'heading', text: 'R-000123', large: true });
    }
    const slip = texts(buildReceipt({ ...payment, state: 'failed' }, ctx)[0]!).join('\n');
    expect(slip).not.toMatch(/RECEIPT$|R-000123/m);
  });
});
