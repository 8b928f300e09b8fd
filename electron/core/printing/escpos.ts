/**
 * Print documents as ESC/POS bytes for a thermal printer, with @point-of-sale/receipt-printer-encoder
 * (no hand-written byte tables). Text is folded to plain ASCII first: printers' code pages have no
 * cedi sign (amounts print as GHS) and differ from model to model beyond ASCII.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { columnsFor, type PaperWidth, type PrintBlock, type PrintDocument } from '../../../shared/receipt/print-document.js';

const REPLACEMENTS: Array<[RegExp, string]> = [
  [/GH₵\s?/g, 'GHS '],
  [/₵/g, 'GHS'],
  [/•/g, '*'],
  [/[—–−]/g, '-'],
  [/→/g, '->'],
  [/[‘’]/g, "'"],
  [/[“”]/g, '"'],
  [/…/g, '...'],
  // Twi and Ga letters have no decomposition: print their nearest Latin letter.
  [/Ɛ/g, 'E'],
  [/ɛ/g, 'e'],
  [/Ɔ/g, 'O'],
  [/ɔ/g, 'o'],
  [/Ŋ/g, 'N'],
  [/ŋ/g, 'n'],
];

/** What the printer will show for a piece of text: printable ASCII only, "?" for what has no equivalent. */
export function toPrinterText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of REPLACEMENTS) out = out.replace(pattern, replacement);
  return out
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?');
}

function rowLines(label: string, value: string, columns: number): string[] {
  if (label.length + 1 + value.length <= columns) return [label + ' '.repeat(columns - label.length - value.length) + value];
  return [label, value.length <= columns ? value.padStart(columns) : value];
}

function encodeBlock(encoder: ReceiptPrinterEncoder, block: PrintBlock, columns: number): void {
  switch (block.kind) {
    case 'banner':
      encoder.bold(true).box({ style: 'double', width: columns, align: 'center' }, toPrinterText(block.text)).bold(false);
      return;
    case 'heading':
      encoder.align('center').bold(true);
      if (block.large) encoder.size(2, 2);
      encoder.line(toPrinterText(block.text));
      if (block.large) encoder.size(1, 1);
      encoder.bold(false).align('left');
      return;
    case 'text':
      encoder.align(block.align).bold(block.bold).line(toPrinterText(block.text)).bold(false).align('left');
      return;
    case 'row':
      encoder.bold(block.bold);
      for (const line of rowLines(toPrinterText(block.label), toPrinterText(block.value), columns)) encoder.line(line);
      encoder.bold(false);
      return;
    case 'qr':
      // The printer draws the QR code itself (GS ( k): sharp at any size, a few bytes to send.
      encoder.align('center').qrcode(toPrinterText(block.value), { model: 2, size: 6, errorlevel: 'm' }).newline().align('left');
      return;
    case 'rule':
      encoder.rule({ style: 'single', width: columns });
      return;
  }
}

/** One job: every document followed by a paper cut. */
export function encodeEscPos(documents: readonly PrintDocument[], paper: PaperWidth): Uint8Array {
  const columns = columnsFor(paper);
  const encoder = new ReceiptPrinterEncoder({ language: 'esc-pos', columns, feedBeforeCut: 4 });
  encoder.initialize();
  for (const document of documents) {
    for (const block of document.blocks) encodeBlock(encoder, block, columns);
    encoder.cut('partial');
  }
  return encoder.encode();
}
