/**
 * The receipt of one payment: always a print button (receipt when PAID, slip when NOT PAID), the
 * automatic print on PAID when the owner wants it, and what happened. The first print after a
 * successful one is a reprint, and says so on the paper. Used by the result screen and History.
 */
import { useEffect, useRef } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import type { PrinterKind } from '../../../shared/receipt/receipt-settings';
import { call } from '../api';
import { PrintSheet } from './print-sheet';
import { PrintStatus } from './print-status';
import { usePrinter } from './use-printer';

type Props = {
  payment: PaymentView;
  /** The chosen printer: automatic printing never opens the browser's print view (none). */
  printer?: PrinterKind;
  /** Print by itself once when the screen shows a PAID payment. */
  autoPrint?: boolean;
  /** History: every print is a reprint. */
  reprint?: boolean;
};

export function PaymentPrint({ payment, printer = 'none', autoPrint = false, reprint = false }: Props) {
  const { state, sheet, setSheet, sheetRef, print } = usePrinter();
  const printedOnce = useRef(reprint);
  const paid = payment.state === 'success';

  useEffect(() => {
    if (state.phase === 'printed') printedOnce.current = true;
  }, [state.phase]);

  const printNow = () => void print(() => call('receipt:print', { paymentId: payment.id, reprint: printedOnce.current }));

  // The screen's own print view (Ctrl+P, or no printer chosen) always has the receipt ready.
  useEffect(() => {
    let current = true;
    call('receipt:preview', { paymentId: payment.id }).then(
      (preview) => current && setSheet((s) => s ?? preview),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [payment.id, setSheet]);

  const autoDone = useRef(false);
  useEffect(() => {
    if (!autoPrint || !paid || printer === 'none' || autoDone.current) return;
    autoDone.current = true;
    printNow();
    // Once per payment shown: printNow changes every render, the payment does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoPrint, paid, printer]);

  // Not disabled while printing (the focus would fall off the button); a press then does nothing.
  const label = reprint ? 'Reprint' : paid ? 'Print receipt' : 'Print slip';
  return (
    <div className="payment-print">
      <button type="button" className="secondary" onClick={printNow} aria-busy={state.phase === 'printing'} data-testid="print-button">
        {state.phase === 'printing' ? 'Printing…' : label}
      </button>
      <PrintStatus state={state} onRetry={printNow} />
      {sheet ? <PrintSheet ref={sheetRef} documents={sheet.documents} paper={sheet.paper} /> : null}
    </div>
  );
}
