/**
 * The receipt of a payment as print documents: a PAID receipt (customer copy, and the merchant copy
 * with fee and net when the owner wants one), or a NOT PAID slip that cannot pass for a receipt.
 * Pure: the core prints exactly what the screen shows.
 */
import type { PaymentView } from '../ipc/contract.js';
import { dateTime, networkLabel } from '../display.js';
import { formatGhs, parseAmount } from '../money.js';
import { displayMsisdn } from '../phone.js';
import type { PrintBlock, PrintDocument } from './print-document.js';
import { TAX_ID_LABELS, type ReceiptSettings } from './receipt-settings.js';

export const SANDBOX_BANNER = 'SANDBOX — NO MONEY MOVED — NOT A RECEIPT';
export const NOT_PAID_BANNER = 'NOT A RECEIPT — NO MONEY WAS RECEIVED';

export type ReceiptContext = {
  settings: ReceiptSettings;
  tillName: string;
  timeZone: string;
  /** When this print is a reprint: the instant it was reprinted (ISO). */
  reprintedAt: string | null;
  /** The cashier who took the payment, once staff exist. */
  cashierName?: string | null;
};

/** A payment with a final answer gets a receipt or a slip; one still waiting gets nothing to print. */
export function isPrintable(payment: PaymentView): boolean {
  return payment.state === 'success' || payment.state === 'failed' || payment.state === 'rejected';
}

/** 233241234567 -> "024 ••• 4567": enough for the customer to recognise, not enough to reuse. */
export function maskMsisdn(msisdn: string): string {
  const national = displayMsisdn(msisdn).replace(/ /g, '');
  if (!/^0[0-9]{9}$/.test(national)) return '•••';
  return `${national.slice(0, 3)} ••• ${national.slice(6)}`;
}

/** An amount from the wire as printed: GH₵1,234.50, or — when there is none. */
export function money(wire: string | null): string {
  return wire === null ? '—' : formatGhs(parseAmount(wire, { allowZero: true }));
}

export const row = (label: string, value: string, bold = false): PrintBlock => ({ kind: 'row', label, value, bold });
export const centred = (text: string, bold = false): PrintBlock => ({ kind: 'text', text, align: 'center', bold });

/** Shop name (the till's name until the owner sets one), address lines, phone, tax id. */
export function shopHeader(settings: ReceiptSettings, tillName: string): PrintBlock[] {
  const blocks: PrintBlock[] = [{ kind: 'heading', text: settings.shopName.trim() || tillName, large: true }];
  for (const line of settings.address.split('\n')) if (line.trim()) blocks.push(centred(line.trim()));
  if (settings.phone.trim()) blocks.push(centred(`Tel ${settings.phone.trim()}`));
  if (settings.taxIdKind !== 'none' && settings.taxId.trim())
    blocks.push(centred(`${TAX_ID_LABELS[settings.taxIdKind]} ${settings.taxId.trim()}`));
  return blocks;
}

function framed(payment: PaymentView, ctx: ReceiptContext, body: PrintBlock[], title: string): PrintDocument {
  const sandbox: PrintBlock[] = payment.environment === 'test' ? [{ kind: 'banner', text: SANDBOX_BANNER }] : [];
  const reprint: PrintBlock[] = ctx.reprintedAt ? [{ kind: 'banner', text: `REPRINT ${dateTime(ctx.reprintedAt, ctx.timeZone)}` }] : [];
  return {
    title: `${title}${ctx.reprintedAt ? ' (reprint)' : ''}`,
    blocks: [...sandbox, ...shopHeader(ctx.settings, ctx.tillName), { kind: 'rule' }, ...reprint, ...body, ...sandbox],
  };
}

function details(payment: PaymentView, ctx: ReceiptContext): PrintBlock[] {
  const blocks = [row('Customer', maskMsisdn(payment.msisdn)), row('Network', networkLabel(payment.network))];
  if (payment.description) blocks.push(row('For', payment.description));
  blocks.push(row('Reference', payment.reference ?? '—'), row('Till ref', payment.merchantRef));
  blocks.push(row('Date', dateTime(payment.completedAt ?? payment.updatedAt, ctx.timeZone)), row('Till', ctx.tillName));
  if (ctx.cashierName) blocks.push(row('Cashier', ctx.cashierName));
  const hand = settledByHandText(payment);
  if (hand) blocks.push(row('Settled', hand, true));
  return blocks;
}

/** How a payment settled by hand is marked on receipts and screens (null: the service's result alone). */
export function settledByHandText(payment: Pick<PaymentView, 'settledByHand'>): string | null {
  const hand = payment.settledByHand;
  if (!hand) return null;
  if (hand.check === 'overridden') return `By the service (it corrected a settle by hand by ${hand.by})`;
  return `By hand (${hand.by})${hand.check === 'confirmed' ? ', confirmed by the service' : ''}`;
}

function paidReceipt(payment: PaymentView, ctx: ReceiptContext, copy: 'customer' | 'merchant'): PrintDocument {
  // The title RECEIPT and the short number a customer quotes when coming back, both large.
  const number: PrintBlock[] = payment.receiptNo ? [{ kind: 'heading', text: payment.receiptNo, large: true }] : [];
  const body: PrintBlock[] = [
    { kind: 'heading', text: 'RECEIPT', large: true },
    ...number,
    { kind: 'heading', text: 'PAID', large: true },
    centred(copy === 'customer' ? 'CUSTOMER COPY' : 'MERCHANT COPY'),
    row('Amount', money(payment.amount), true),
  ];
  if (copy === 'merchant') body.push(row('Fee', money(payment.fee)), row('You receive', money(payment.net), true));
  body.push(...details(payment, ctx));
  if (payment.reference) body.push({ kind: 'qr', value: payment.reference });
  if (ctx.settings.footer.trim()) body.push({ kind: 'rule' }, centred(ctx.settings.footer.trim()));
  return framed(payment, ctx, body, copy === 'customer' ? 'customer receipt' : 'merchant copy');
}

function notPaidSlip(payment: PaymentView, ctx: ReceiptContext): PrintDocument {
  const body: PrintBlock[] = [
    { kind: 'heading', text: 'NOT PAID', large: true },
    { kind: 'banner', text: NOT_PAID_BANNER },
    centred('Do not hand over goods for this attempt.', true),
    row('Amount asked', money(payment.amount), true),
    ...details(payment, ctx),
    { kind: 'banner', text: NOT_PAID_BANNER },
  ];
  return framed(payment, ctx, body, 'NOT PAID slip');
}

/** The documents to print for a payment with a final answer, in printing order. */
export function buildReceipt(payment: PaymentView, ctx: ReceiptContext): PrintDocument[] {
  if (payment.state !== 'success') return [notPaidSlip(payment, ctx)];
  const customer = paidReceipt(payment, ctx, 'customer');
  return ctx.settings.merchantCopy ? [customer, paidReceipt(payment, ctx, 'merchant')] : [customer];
}

/** What "Test print" in Settings prints: the header as customers will see it, a QR code, the paper width. */
export function buildTestPage(settings: ReceiptSettings, tillName: string, printedAt: string, timeZone: string): PrintDocument {
  return {
    title: 'test print',
    blocks: [
      ...shopHeader(settings, tillName),
      { kind: 'rule' },
      { kind: 'heading', text: 'TEST PRINT', large: true },
      centred('Not a receipt. If this reads well and the QR code scans, the printer is ready.'),
      row('Paper', `${settings.paper} mm`),
      row('Date', dateTime(printedAt, timeZone)),
      row('Till', tillName),
      { kind: 'qr', value: 'momo-till test print' },
      ...(settings.footer.trim() ? [{ kind: 'rule' } as const, centred(settings.footer.trim())] : []),
    ],
  };
}
