/** The printing part of the IPC contract (spread into `ipcContract`): receipts, test prints, printers, the receipt's settings. */
import { z } from 'zod';
import { paperWidthSchema, printDocumentSchema } from '../receipt/print-document.js';
import { receiptSettingsSchema } from '../receipt/receipt-settings.js';

const documents = z.array(printDocumentSchema).max(4);

/** The documents are always returned, so the screen shows what was (or should have been) printed. */
export const printResultSchema = z.union([
  z.object({ ok: z.literal(true), deliver: z.enum(['sent', 'page', 'dialog']), documents, paper: paperWidthSchema }),
  z.object({ ok: z.literal(false), message: z.string(), documents, paper: paperWidthSchema }),
]);
export type PrintResult = z.infer<typeof printResultSchema>;

const pageResultSchema = z.union([z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), message: z.string() })]);

export const receiptChannels = {
  /** What `receipt:print` would print, without printing: the screen keeps it ready for its own print view. */
  'receipt:preview': {
    request: z.object({ paymentId: z.string().max(64) }).strict(),
    response: z.object({ documents, paper: paperWidthSchema }),
  },
  /** The receipt (or NOT PAID slip) of a payment with a final answer, on the chosen printer. */
  'receipt:print': {
    request: z.object({ paymentId: z.string().max(64), reprint: z.boolean().default(false) }).strict(),
    response: printResultSchema,
  },
  /** Owner: a test page on the chosen printer. */
  'receipt:testPrint': { request: z.object({}).strict(), response: printResultSchema },
  /** System printer: print the page the screen has just drawn (height of the tallest document, in mm). */
  'printer:printPage': { request: z.object({ heightMm: z.number().min(10).max(5_000) }).strict(), response: pageResultSchema },
  /** Owner: the operating system's printers (empty outside the desktop app). */
  'printer:list': {
    request: z.object({}).strict(),
    response: z.object({ printers: z.array(z.object({ name: z.string(), displayName: z.string() })) }),
  },
  /** Owner: shop header, footer, paper, printer, automatic printing, merchant copy. */
  'receipt:saveSettings': { request: receiptSettingsSchema.strict(), response: z.object({ ok: z.literal(true) }) },
} as const;
