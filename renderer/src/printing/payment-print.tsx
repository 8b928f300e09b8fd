/**
 * The receipt of one payment: always a print button (receipt when PAID, slip when NOT PAID), the
 * automatic print on PAID when the owner wants it, and what happened. The first print after a
 * successful one is a reprint, and says so on the paper. Used by the result screen and History.
 */
import { useEffect, useRef, useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { PrinterKind } from '../../../shared/receipt/receipt-settings';
import { call, toCallError } from '../api';
import { PrintSheet } from './print-sheet';
import { PrintStatus } from './print-status';
import { usePrinter } from './use-printer';
import './printing.css';

type Props = {
  payment: PaymentView;
  /** The chosen printer: automatic printing never opens the browser's print view (none). */
  printer?: PrinterKind;
  /** Print by itself once when the screen shows a PAID payment. */
  autoPrint?: boolean;
  /** History: every print is a reprint. */
  reprint?: boolean;
  /** Who is signed in: what the core lets them print changes with the person (and nothing while locked). */
  viewer?: string | null;
  /**
   * After a print went to the printer, while the focus is still on the print button: the result screen puts
   * it back on "New sale", so a reflex Enter starts the next sale instead of printing a second slip.
   */
  onPrinted?: () => void;
};

export function PaymentPrint({ payment, printer = 'none', autoPrint = false, reprint = false, viewer = null, onPrinted }: Props) {
  const { state, sheet, setSheet, sheetRef, print } = usePrinter();
  const printedOnce = useRef(reprint);
  const paid = payment.state === 'success';
  // A cashier's receipts are their own shift's (the core answers NOT_FOUND for others, e.g. a result that
  // landed after a colleague started it): the person who started it, or a manager, prints it.
  const [notYours, setNotYours] = useState(false);

  const boxRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.phase !== 'printed') return;
    printedOnce.current = true;
    const focus = document.activeElement;
    if (!focus || focus === document.body || boxRef.current?.contains(focus)) onPrinted?.();
    // Once per print: onPrinted may change every render of the screen above.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.phase]);

  const printNow = () => void print(() => call('receipt:print', { paymentId: payment.id, reprint: printedOnce.current }));

  // The screen's own print view (Ctrl+P, or no printer chosen) always has the receipt ready.
  useEffect(() => {
    let current = true;
    setNotYours(false);
    call('receipt:preview', { paymentId: payment.id }).then(
      (preview) => current && setSheet((s) => s ?? preview),
      (error: unknown) => current && setNotYours(toCallError(error).code === 'NOT_FOUND'),
    );
    return () => {
      current = false;
    };
  }, [payment.id, setSheet, viewer]);

  const autoDone = useRef(false);
  useEffect(() => {
    if (!autoPrint || !paid || printer === 'none' || notYours || autoDone.current) return;
    autoDone.current = true;
    printNow();
    // Once per payment shown: printNow changes every render, the payment does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoPrint, paid, printer, notYours]);

  if (notYours) {
    return (
      <p className="payment-print muted" data-testid="print-not-yours">
        Its receipt is printed by {payment.startedBy ?? 'whoever started it'} or a manager.
      </p>
    );
  }

  // Not disabled while printing (the focus would fall off the button); a press then does nothing.
  const label = reprint ? 'Reprint' : paid ? 'Print receipt' : 'Print slip';
  return (
    <div className="payment-print" ref={boxRef}>
      <button type="button" className="secondary" onClick={printNow} aria-busy={state.phase === 'printing'} data-testid="print-button">
        {state.phase === 'printing' ? 'Printing…' : label}
      </button>
      <PrintStatus state={state} onRetry={printNow} />
      {sheet ? <PrintSheet ref={sheetRef} documents={sheet.documents} paper={sheet.paper} /> : null}
    </div>
  );
}
