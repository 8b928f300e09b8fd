/** What the owner sets for receipts and the printer (not secrets: kept in settings.json). */
import { z } from 'zod';
import { paperWidthSchema } from './print-document.js';

export const DEFAULT_PRINTER_PORT = 9100;
/** No print attempt holds the counter longer than this. */
export const PRINT_TIMEOUT_MS = 5_000;

export const TAX_ID_KINDS = ['none', 'tin', 'vat'] as const;
export const TAX_ID_LABELS = { tin: 'GRA TIN', vat: 'VAT No.' } as const;

export const printerKindSchema = z.enum(['none', 'system', 'network']);
export type PrinterKind = z.infer<typeof printerKindSchema>;

export const receiptSettingsSchema = z.object({
  shopName: z.string().max(40),
  /** Up to three lines. */
  address: z.string().max(120),
  phone: z.string().max(20),
  taxIdKind: z.enum(TAX_ID_KINDS),
  taxId: z.string().max(20),
  footer: z.string().max(120),
  paper: paperWidthSchema,
  printer: printerKindSchema,
  /** Network printer: host name or IP address, and TCP port (9100 for most Ethernet and Wi-Fi thermal printers). */
  host: z.string().max(253),
  port: z.number().int().min(1).max(65_535),
  /** System printer: the name the operating system knows it by. */
  deviceName: z.string().max(200),
  autoPrint: z.boolean(),
  merchantCopy: z.boolean(),
});
export type ReceiptSettings = z.infer<typeof receiptSettingsSchema>;

export const DEFAULT_RECEIPT_SETTINGS: ReceiptSettings = {
  shopName: '',
  address: '',
  phone: '',
  taxIdKind: 'none',
  taxId: '',
  footer: 'Thank you',
  paper: 80,
  printer: 'none',
  host: '',
  port: DEFAULT_PRINTER_PORT,
  deviceName: '',
  autoPrint: false,
  merchantCopy: false,
};
