/** The one print path that every printing channel shares (receipts; shift, X and Z reports too). */
import type { PrintDocument } from '../../../shared/receipt/print-document.js';
import type { PrintResult } from '../../../shared/ipc/receipt-contract.js';
import type { ReceiptSettings } from '../../../shared/receipt/receipt-settings.js';
import type { PrintService } from './print-service.js';

/** What printing needs of the core: the print service and the paper the owner chose. */
export type PrintDeps = { printing: PrintService; settings: { settings: { receipt: Pick<ReceiptSettings, 'paper'> } } };

/**
 * Answer with this (`printResultSchema`) and the renderer's `usePrinter().print` does the rest.
 */
export async function printDocuments(ctx: PrintDeps, key: string, documents: PrintDocument[]): Promise<PrintResult> {
  return { ...(await ctx.printing.print(key, documents)), documents, paper: ctx.settings.settings.receipt.paper };
}
