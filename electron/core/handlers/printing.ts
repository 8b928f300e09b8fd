/**
 * The receipt and the printer: `receipt:*` (a payment's receipt, the owner's test print, the receipt's
 * settings) and `printer:*` (the system printer's page and list).
 */
import type { PaymentView } from '../../../shared/ipc/contract.js';
import { buildReceipt, buildTestPage, isPrintable } from '../../../shared/receipt/build-receipt.js';
import type { PrintDocument } from '../../../shared/receipt/print-document.js';
import type { CoreContext } from '../core-context.js';
import type { ChannelsOf, HandlerMap } from '../dispatcher.js';
import { CoreError } from '../errors.js';
import { visiblePayment } from '../history/index.js';
import { toPaymentView } from '../payments/index.js';
import { printDocuments, validateReceiptSettings } from '../printing/index.js';

/** What the receipt's and printer's channels use of the core (a receipt shows only a payment the caller may see). */
export type PrintingDeps = Pick<CoreContext, 'printing' | 'settings' | 'repo' | 'signIn' | 'shifts' | 'log' | 'now'>;

export function printingHandlers(ctx: PrintingDeps): HandlerMap<ChannelsOf<'receipt' | 'printer'>> {
  const print = (key: string, documents: PrintDocument[]) => printDocuments(ctx, key, documents);

  /** The payment as the receipt shows it, with the cashier who took it once staff exist. */
  const paymentFor = (id: string): { payment: PaymentView; cashierName: string | null } => {
    // A cashier: only payments of their own open shift (history/cashier-scope.ts), any other as an unknown id.
    const row = visiblePayment(ctx, id);
    if (!row) throw new CoreError('NOT_FOUND', 'That payment is not on this till.');
    const payment = toPaymentView(row);
    if (!isPrintable(payment))
      throw new CoreError('NOT_FINAL', 'This payment has no result yet: its receipt can be printed once it is PAID or NOT PAID.');
    return { payment, cashierName: row.staff_name ?? null };
  };

  const receiptOf = (id: string, reprint: boolean): PrintDocument[] => {
    const { payment, cashierName } = paymentFor(id);
    const { tillName, timeZone, receipt } = ctx.settings.settings;
    const reprintedAt = reprint ? new Date(ctx.now()).toISOString() : null;
    return buildReceipt(payment, { settings: receipt, tillName, timeZone, reprintedAt, cashierName });
  };

  return {
    'receipt:preview': async ({ paymentId }) => ({
      documents: receiptOf(paymentId, false),
      paper: ctx.settings.settings.receipt.paper,
    }),

    'receipt:print': async ({ paymentId, reprint }) => print(`receipt:${paymentId}`, receiptOf(paymentId, reprint)),

    'receipt:testPrint': async () => {
      const { tillName, timeZone, receipt } = ctx.settings.settings;
      return print('test', [buildTestPage(receipt, tillName, new Date(ctx.now()).toISOString(), timeZone)]);
    },

    'printer:printPage': async ({ heightMm }) => ctx.printing.printPage(heightMm),

    'printer:list': async () => {
      return { printers: await ctx.printing.listSystemPrinters() };
    },

    'receipt:saveSettings': async (request) => {
      ctx.settings.update({ receipt: validateReceiptSettings(request) });
      ctx.log.info('settings.receipt_saved', { printer: request.printer, paper: request.paper });
      return { ok: true };
    },
  };
}
