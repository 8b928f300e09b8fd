/**
 * A printed document (a receipt, a NOT PAID slip, a test page, a shift report) as a list of blocks.
 * The core builds it once; the renderer draws it in HTML (screen, PDF, system printer) and the core
 * encodes the same blocks as ESC/POS for a network printer, so paper and screen never disagree.
 */
import { z } from 'zod';

export const PAPER_WIDTHS = [58, 80] as const;
export const paperWidthSchema = z.union([z.literal(58), z.literal(80)]);
export type PaperWidth = z.infer<typeof paperWidthSchema>;

const text = z.string().max(400);

export const printBlockSchema = z.discriminatedUnion('kind', [
  /** Bold, boxed, centred: the sandbox warning, the NOT PAID warning, REPRINT. */
  z.object({ kind: z.literal('banner'), text }),
  /** Centred and bold; `large` is double size (PAID / NOT PAID, the shop's name). */
  z.object({ kind: z.literal('heading'), text, large: z.boolean() }),
  z.object({ kind: z.literal('text'), text, align: z.enum(['left', 'center']), bold: z.boolean() }),
  /** A label on the left and its value on the right (or below it when both do not fit). */
  z.object({ kind: z.literal('row'), label: text, value: text, bold: z.boolean() }),
  z.object({ kind: z.literal('qr'), value: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('rule') }),
]);
export type PrintBlock = z.infer<typeof printBlockSchema>;

export const printDocumentSchema = z.object({
  /** What the document is, for people and tests: "customer receipt", "NOT PAID slip", "test print"… */
  title: z.string().max(80),
  blocks: z.array(printBlockSchema).max(2000),
});
export type PrintDocument = z.infer<typeof printDocumentSchema>;

/** Characters per line of Font A: 384 dots (58 mm paper) and 576 dots (80 mm) at 12 dots a character. */
export function columnsFor(paper: PaperWidth): number {
  return paper === 58 ? 32 : 48;
}
