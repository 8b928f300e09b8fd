/**
 * The documents to print, drawn for paper: one page per document, 58 or 80 mm wide. Drawn straight
 * under <body> (a portal), laid out but invisible on screen (so its height can be measured for the
 * page size); in print media it is the only thing on the page (printing.css).
 */
import { forwardRef } from 'react';
import { createPortal } from 'react-dom';
import type { PaperWidth, PrintBlock, PrintDocument } from '../../../shared/receipt/print-document';
import { QrCode } from './qr-code';
import './printing.css';

function Block({ block }: { block: PrintBlock }) {
  switch (block.kind) {
    case 'banner':
      return <p className="receipt-banner">{block.text}</p>;
    case 'heading':
      return <p className={block.large ? 'receipt-heading receipt-large' : 'receipt-heading'}>{block.text}</p>;
    case 'text':
      return <p className={`receipt-text align-${block.align}${block.bold ? ' bold' : ''}`}>{block.text}</p>;
    case 'row':
      return (
        <div className={block.bold ? 'receipt-row bold' : 'receipt-row'}>
          <span>{block.label}</span>
          <span>{block.value}</span>
        </div>
      );
    case 'qr':
      return <QrCode value={block.value} label={`QR code: ${block.value}`} />;
    case 'rule':
      return <hr className="receipt-rule" />;
  }
}

type Props = { documents: readonly PrintDocument[]; paper: PaperWidth };

export const PrintSheet = forwardRef<HTMLDivElement, Props>(function PrintSheet({ documents, paper }, ref) {
  return createPortal(
    <div ref={ref} className={`print-sheet paper-${paper}`} data-testid="print-sheet" aria-hidden="true">
      {documents.map((document, index) => (
        <article key={`${index}-${document.title}`} className="receipt" data-testid="receipt" data-title={document.title}>
          {document.blocks.map((block, i) => (
            <Block key={i} block={block} />
          ))}
        </article>
      ))}
    </div>,
    document.body,
  );
});
