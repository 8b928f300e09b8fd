/**
 * An X or Z report on screen: what it covers, the totals, by cashier, till and network, then its lists
 * (day-report-lists.tsx). A TEST report says TEST at its head. Print and, for a Z, Export CSV.
 */
import { X_REPORT_TITLE, xSpanNote } from './x-span';
import { useEffect, useRef } from 'react';
import { closeWarningsOf, correctedSinceOf, reportScopeOf, type DayReport, type SinceCloseLine } from '../../../shared/ipc/contract';
import type { PrintResult } from '../../../shared/ipc/receipt-contract';
import { dayTime, networkLabel } from '../format';
import { PrintSheet } from '../printing/print-sheet';
import { PrintStatus } from '../printing/print-status';
import { usePrinter } from '../printing/use-printer';
import { DayReportLists, SinceCloseList } from './day-report-lists';
import { TakingsBreakdown } from '../takings/takings-breakdown';
import { TakingsCards } from '../takings/takings-cards';

type Props = {
  report: DayReport;
  timeZone: string;
  /** This till's name, for a Z made before reports named the till they were made at. */
  tillName: string;
  /** A closed Z: what happened since its close. */
  sinceClose: SinceCloseLine[] | null;
  /** Asks the core to print this report (the one print path). */
  printJob: () => Promise<PrintResult>;
  onExport: (() => void) | null;
};

function Covers({ report, timeZone }: { report: DayReport; timeZone: string }) {
  const from = report.openedAt ? dayTime(report.openedAt, timeZone) : 'the first payment';
  return (
    <p data-testid="day-covers">
      {report.kind === 'z'
        ? `From ${from} to the close on ${dayTime(report.at, timeZone)}${report.closedBy ? `, closed by ${report.closedBy}` : ''}.`
        : `From ${from} to now (${dayTime(report.at, timeZone)}). Nothing is closed: this is a read since the last close.`}
    </p>
  );
}

/** Whose figures these are (every till's report sums the whole shop's results), and what to know of other closes. */
function Scope({ report, timeZone, tillName }: { report: DayReport; timeZone: string; tillName: string }) {
  return (
    <>
      <p className="day-scope" data-testid="day-scope">
        {reportScopeOf(report, tillName)}
      </p>
      {closeWarningsOf(report, (iso) => dayTime(iso, timeZone)).map((w) => (
        <p key={w} className="warning-text" data-testid="day-warning">
          {w}
        </p>
      ))}
    </>
  );
}

export function DayReportView({ report, timeZone, tillName, sinceClose, printJob, onExport }: Props) {
  const printer = usePrinter();
  const onPrint = () => void printer.print(printJob);
  // A report opened from the list below (or taken anew) is shown above it: take the reader there.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [report]);
  const title = report.kind === 'z' ? `Z report ${report.label}` : X_REPORT_TITLE;
  const span = xSpanNote(report, timeZone);
  return (
    <section className="day-report" aria-labelledby="day-report-title" data-testid="day-report">
      <h2 id="day-report-title" ref={heading} tabIndex={-1}>
        {title}{' '}
        <span className={`env-badge env-${report.environment}`} data-testid="day-report-env">
          {report.environment.toUpperCase()}
        </span>
      </h2>
      <Covers report={report} timeZone={timeZone} />
      {span ? (
        <p className="warning-text" data-testid="day-x-span">
          {span}
        </p>
      ) : null}
      <Scope report={report} timeZone={timeZone} tillName={tillName} />
      {report.settledByHand > 0 ? (
        <p data-testid="day-by-hand">
          {report.settledByHand === 1 ? '1 of these results was' : `${report.settledByHand} of these results were`} settled by hand, marked
          below and in the CSV.
        </p>
      ) : null}
      <div className="day-actions">
        <button
          type="button"
          className="secondary"
          onClick={onPrint}
          aria-busy={printer.state.phase === 'printing'}
          data-testid="day-print"
        >
          {printer.state.phase === 'printing' ? 'Printing…' : 'Print'}
        </button>
        {onExport ? (
          <button type="button" className="secondary" onClick={onExport} data-testid="day-export">
            Export CSV
          </button>
        ) : null}
      </div>
      <PrintStatus state={printer.state} onRetry={onPrint} />
      <TakingsCards totals={report.totals} label={`${title} totals`} testPrefix="day" />
      {correctedSinceOf(report).map((c) => (
        <p key={c.name} className="warning-text" data-testid="day-corrected">
          {c.text}
        </p>
      ))}
      <div className="breakdowns">
        <TakingsBreakdown
          title="By cashier"
          testId="day-by-cashier"
          rows={report.byCashier.map((c) => ({ ...c, key: c.cashierId ?? '-', label: c.cashier ?? 'Nobody signed in' }))}
        />
        <TakingsBreakdown
          title="By till"
          testId="day-by-till"
          rows={report.byTill.map((t) => ({ ...t, key: t.tillId, label: t.tillName ?? t.tillId }))}
        />
        <TakingsBreakdown
          title="By network"
          testId="day-by-network"
          rows={report.byNetwork.map((n) => ({ ...n, key: n.network, label: networkLabel(n.network) }))}
        />
      </div>
      <DayReportLists report={report} timeZone={timeZone} />
      {sinceClose ? <SinceCloseList lines={sinceClose} timeZone={timeZone} /> : null}
      {printer.sheet ? <PrintSheet ref={printer.sheetRef} documents={printer.sheet.documents} paper={printer.sheet.paper} /> : null}
    </section>
  );
}
