/** Under the print button: printing, printed, or the printer's problem with "Print again". */
import type { PrintState } from './use-printer';
import './printing.css';

export function PrintStatus({ state, onRetry }: { state: PrintState; onRetry: () => void }) {
  if (state.phase === 'printing') {
    return (
      <p className="print-status muted" role="status" data-testid="print-status">
        Printing…
      </p>
    );
  }
  if (state.phase === 'printed') {
    return (
      <p className="print-status ok-text" role="status" data-testid="print-status">
        Sent to the printer.
      </p>
    );
  }
  if (state.phase === 'failed') {
    return (
      <div className="print-status print-failed" role="alert" data-testid="print-error">
        <p>Not printed: {state.message} The sale is not affected.</p>
        <button type="button" className="secondary" onClick={onRetry}>
          Print again
        </button>
      </div>
    );
  }
  return null;
}
