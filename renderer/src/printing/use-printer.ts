/** Front door of printing/ (what other folders may use): usePrinter, PrintSheet, PrintStatus, PaymentPrint, QrCode, ReceiptForm. */
/**
 * Runs one print at a time for a screen and keeps what the cashier needs to see: printing, printed,
 * or what went wrong (with "print again"). A second press while printing does nothing. The core
 * answers within 5 s whatever the printer does, so nothing here can hold up the counter.
 */
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { PrintResult } from '../../../shared/ipc/receipt-contract';
import type { PaperWidth, PrintDocument } from '../../../shared/receipt/print-document';
import { call, errorMessage } from '../api';
import { applyPageSize } from './page-size';

export type PrintState = { phase: 'idle' | 'printing' | 'printed' } | { phase: 'failed'; message: string };
export type Sheet = { documents: PrintDocument[]; paper: PaperWidth };

export function usePrinter(initial: Sheet | null = null) {
  const [state, setState] = useState<PrintState>({ phase: 'idle' });
  const [sheet, setSheet] = useState<Sheet | null>(initial);
  const sheetRef = useRef<HTMLDivElement>(null);
  const busy = useRef(false);

  /** Draws the documents and gives the page its size; the sheet is in the DOM when this returns. */
  const draw = useCallback((next: Sheet): number => {
    flushSync(() => setSheet(next));
    return sheetRef.current ? applyPageSize(sheetRef.current, next.paper) : 0;
  }, []);

  const deliver = useCallback(
    async (result: PrintResult): Promise<PrintState> => {
      const heightMm = draw({ documents: result.documents, paper: result.paper });
      if (!result.ok) return { phase: 'failed', message: result.message };
      if (result.deliver === 'dialog') window.print();
      if (result.deliver === 'page') {
        const page = await call('printer:printPage', { heightMm });
        if (!page.ok) return { phase: 'failed', message: page.message };
      }
      return { phase: 'printed' };
    },
    [draw],
  );

  const print = useCallback(
    async (job: () => Promise<PrintResult>): Promise<void> => {
      if (busy.current) return;
      busy.current = true;
      setState({ phase: 'printing' });
      try {
        setState(await deliver(await job()));
      } catch (error) {
        setState({ phase: 'failed', message: errorMessage(error) });
      } finally {
        busy.current = false;
      }
    },
    [deliver],
  );

  return { state, sheet, setSheet, sheetRef, print };
}
