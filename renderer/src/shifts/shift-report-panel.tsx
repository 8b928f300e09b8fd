/**
 * One shift's report with its actions: Print (the one print path: shifts:print, then usePrinter does the
 * rest) and, while it is open and the person may, Close shift, confirmed first (closing your own signs you out).
 */
import { useState } from 'react';
import type { ShiftReport } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';
import { FormError } from '../components/form-error';
import { PrintSheet } from '../printing/print-sheet';
import { PrintStatus } from '../printing/print-status';
import { usePrinter } from '../printing/use-printer';
import { ShiftFigures } from './shift-figures';

type Props = {
  report: ShiftReport;
  timeZone: string;
  /** The signed-in person's own shift: closing it signs them out. */
  own: boolean;
  /** A cashier closes their own shift only; a manager or the owner anyone's. */
  mayClose: boolean;
  onClosed: (report: ShiftReport) => void;
};

function CloseShift({ report, own, onClosed }: Pick<Props, 'report' | 'own' | 'onClosed'>) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = async () => {
    try {
      onClosed(await call('shifts:close', { id: report.id }));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  if (!asking) {
    return (
      <button type="button" className="secondary" onClick={() => setAsking(true)}>
        Close shift
      </button>
    );
  }
  return (
    <div className="shift-confirm" role="group" aria-labelledby="shift-confirm-text">
      <p id="shift-confirm-text">
        {own
          ? 'Close your shift? Its report is kept as it stands now, and you are signed out.'
          : `Close ${report.staffName}'s shift? Its report is kept as it stands now.`}
      </p>
      <button type="button" className="primary" onClick={() => void close()}>
        {own ? 'Close shift and sign out' : 'Close the shift'}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Keep it open
      </button>
      <FormError message={error} />
    </div>
  );
}

export function ShiftReportPanel({ report, timeZone, own, mayClose, onClosed }: Props) {
  const { state, sheet, sheetRef, print } = usePrinter();
  const printNow = () => void print(() => call('shifts:print', { id: report.id }));
  return (
    <div className="shift-panel">
      <div className="actions">
        <button type="button" className="secondary" onClick={printNow} aria-busy={state.phase === 'printing'} data-testid="shift-print">
          {state.phase === 'printing' ? 'Printing…' : 'Print'}
        </button>
        {mayClose && report.closedAt === null ? <CloseShift report={report} own={own} onClosed={onClosed} /> : null}
      </div>
      <PrintStatus state={state} onRetry={printNow} />
      <ShiftFigures report={report} timeZone={timeZone} />
      {sheet ? <PrintSheet ref={sheetRef} documents={sheet.documents} paper={sheet.paper} /> : null}
    </div>
  );
}
