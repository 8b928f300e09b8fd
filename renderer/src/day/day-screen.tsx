/** Front door of day/ (what other folders may use): DayScreen, for screens.tsx. */
/**
 * The day's close (managers and the owner): the X report (the day so far, closes nothing), closing the
 * day into the next Z report after a confirmation (it cannot be undone), the past Z reports, one Z as it
 * was frozen with what happened since, Print and Export CSV. Everything is of the active environment.
 */
import { X_REPORT_TITLE } from './x-span';
import { useCallback, useEffect, useState } from 'react';
import { closeWarningsOf, type DayReport, type SinceCloseLine, type ZSummary } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';
import { useAnnounce } from '../components/announcer';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { TableHead } from '../components/table-head';
import { dayTime, ghs } from '../format';
import { DayReportView } from './day-report-view';
import { downloadCsv } from '../download-csv';
import '../components/components.css';
import '../takings/takings.css';
import './day.css';

type Shown = { report: DayReport; id: number | null; sinceClose: SinceCloseLine[] | null };

type ConfirmProps = { next: string; warnings: string[]; onConfirm: () => void; onCancel: () => void };

function CloseConfirm({ next, warnings, onConfirm, onCancel }: ConfirmProps) {
  return (
    <div className="confirm-box day-confirm" role="group" aria-labelledby="day-confirm-text" data-testid="day-confirm">
      <p id="day-confirm-text" className="warning-text">
        Close the day as {next}? This cannot be undone: the report is stored as it stands now and never changes. Results that arrive later
        are counted in the next Z report.
      </p>
      {warnings.map((w) => (
        <p key={w} className="warning-text" data-testid="day-confirm-warning">
          {w}
        </p>
      ))}
      <div className="day-actions">
        <button type="button" className="danger" onClick={onConfirm} data-testid="day-confirm-close">
          Close the day as {next}
        </button>
        <button type="button" className="secondary" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </div>
  );
}

function PastReports({ reports, timeZone, onOpen }: { reports: ZSummary[]; timeZone: string; onOpen: (id: number) => void }) {
  return (
    <table className="breakdown" data-testid="day-list">
      <caption>Past Z reports</caption>
      <TableHead columns={['Z', 'Closed', 'Closed by', { label: 'Payments', numeric: true }, { label: 'Net', numeric: true }]} />
      <tbody>
        {reports.length === 0 ? (
          <tr>
            <td colSpan={5} className="muted">
              No day has been closed yet.
            </td>
          </tr>
        ) : (
          reports.map((z) => (
            <tr key={z.id}>
              <th scope="row">
                <button type="button" className="link" onClick={() => onOpen(z.id)}>
                  {z.label}
                </button>
              </th>
              <td>{dayTime(z.closedAt, timeZone)}</td>
              <td>{z.closedBy ?? '—'}</td>
              <td className="num">{z.totals.count}</td>
              <td className="num">{ghs(z.totals.net)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

export function DayScreen({ timeZone, tillName }: { timeZone: string; tillName: string }) {
  const [reports, setReports] = useState<ZSummary[]>([]);
  const [shown, setShown] = useState<Shown | null>(null);
  /** The close's question is up, with what the day so far says to know before closing (closeWarningsOf). */
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const announce = useAnnounce();
  const lastNumber = reports[0]?.number ?? 0;

  const attempt = useCallback(async (work: () => Promise<void>) => {
    try {
      await work();
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);
  // Keeps any error on screen: after a refused close the list shows the Z that came first.
  const loadList = useCallback(async () => {
    try {
      setReports((await call('day:list', {})).reports);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);
  useEffect(() => void loadList(), [loadList]);

  const xReport = () => attempt(async () => setShown({ report: await call('day:xReport', {}), id: null, sinceClose: null }));
  const open = (id: number) => attempt(async () => setShown(await call('day:get', { id })));
  const closeDay = () =>
    attempt(async () => {
      setConfirming(null);
      const closed = await call('day:close', { lastNumber });
      announce(`The day is closed: ${closed.report.label}.`);
      setShown(await call('day:get', { id: closed.id }));
    }).then(loadList);
  const exportCsv = (id: number) =>
    attempt(async () => {
      const file = await call('day:exportCsv', { id });
      downloadCsv(file.filename, file.csv);
      announce(`Saved ${file.filename}`);
    });
  const askToClose = () =>
    attempt(async () => setConfirming(closeWarningsOf(await call('day:xReport', {}), (iso) => dayTime(iso, timeZone))));
  const next = `Z-${String(lastNumber + 1).padStart(4, '0')}`;

  return (
    <Screen name="day" title="Day close">
      <FormError message={error} />
      <div className="day-actions">
        <button type="button" className="secondary" onClick={() => void xReport()} data-testid="day-x">
          {X_REPORT_TITLE}
        </button>
        <button type="button" className="danger" onClick={() => void askToClose()} data-testid="day-close">
          Close the day
        </button>
      </div>
      {confirming ? (
        <CloseConfirm next={next} warnings={confirming} onConfirm={() => void closeDay()} onCancel={() => setConfirming(null)} />
      ) : null}
      {shown ? (
        <DayReportView
          key={`${shown.id ?? 'x'}-${shown.report.at}`}
          report={shown.report}
          timeZone={timeZone}
          tillName={tillName}
          sinceClose={shown.sinceClose}
          printJob={() => call('day:print', shown.id === null ? {} : { id: shown.id })}
          onExport={shown.id === null ? null : () => void exportCsv(shown.id as number)}
        />
      ) : null}
      <PastReports reports={reports} timeZone={timeZone} onOpen={(id) => void open(id)} />
    </Screen>
  );
}
