/** Takings: today's cards, the last 30 days (or any range) as a chart, by network and by till, CSV. */
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { TakingsReport } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';
import { useAnnounce } from '../components/announcer';
import { DateField } from '../components/date-field';
import { addDays, dayText, isoDate, networkLabel, parseDayText } from '../format';
import { downloadCsv } from './download-csv';
import { TakingsBreakdown } from './takings-breakdown';
import { TakingsAwaiting } from './takings-awaiting';
import { TakingsCards } from './takings-cards';
import { TakingsChart } from './takings-chart';

export function TakingsScreen({ timeZone, till }: { timeZone: string; till: { id: string; name: string } }) {
  const today = isoDate(new Date(), timeZone);
  const [fromText, setFromText] = useState(() => dayText(addDays(today, -29)));
  const [toText, setToText] = useState(() => dayText(today));
  const [dateErrors, setDateErrors] = useState<{ from?: string; to?: string }>({});
  const [todayReport, setTodayReport] = useState<TakingsReport | null>(null);
  const [report, setReport] = useState<TakingsReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const announce = useAnnounce();

  const load = useCallback(
    async (f: string, t: string) => {
      if (f > t) {
        setError('The first date must not be after the last date.');
        return;
      }
      try {
        const [day, range] = await Promise.all([
          call('takings:report', { from: today, to: today }),
          call('takings:report', { from: f, to: t }),
        ]);
        setTodayReport(day);
        setReport(range);
        setError(null);
      } catch (e) {
        setError(errorMessage(e));
      }
    },
    [today],
  );

  useEffect(() => {
    void load(addDays(today, -29), today);
  }, [load, today]);

  /** A typed date checked when its box is left, so a mistake is named next to it before anything is asked. */
  const check = (field: 'from' | 'to', typed: string) => {
    const parsed = parseDayText(typed);
    setDateErrors((errors) => ({ ...errors, [field]: parsed.ok ? undefined : parsed.message }));
  };

  /** Both dates as YYYY-MM-DD, or undefined with each mistake shown next to its box (what was typed stays). */
  const range = (): { from: string; to: string } | undefined => {
    const [f, t] = [parseDayText(fromText), parseDayText(toText)];
    setDateErrors({ from: f.ok ? undefined : f.message, to: t.ok ? undefined : t.message });
    if (!f.ok) document.getElementById('range-from')?.focus();
    else if (!t.ok) document.getElementById('range-to')?.focus();
    return f.ok && t.ok ? { from: f.date, to: t.date } : undefined;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = range();
    if (r) void load(r.from, r.to);
  };

  const exportCsv = async (first: string, last: string) => {
    try {
      const file = await call('takings:exportCsv', { from: first, to: last });
      downloadCsv(file.filename, file.csv);
      announce(`Saved ${file.filename}`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <section className="takings-screen" aria-labelledby="takings-title">
      <h1 id="takings-title" className="screen-title">
        Takings
      </h1>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <h2>Today ({dayText(today)})</h2>
      {todayReport ? <TakingsCards totals={todayReport.totals} label="Today's totals" testPrefix="today" /> : <p>Loading…</p>}
      {todayReport ? <TakingsAwaiting awaiting={todayReport.awaiting} /> : null}
      <form className="range-form" onSubmit={submit}>
        <DateField
          id="range-from"
          label="From"
          text={fromText}
          error={dateErrors.from}
          onText={setFromText}
          onBlur={() => check('from', fromText)}
        />
        <DateField id="range-to" label="To" text={toText} error={dateErrors.to} onText={setToText} onBlur={() => check('to', toText)} />
        <button type="submit" className="secondary">
          Show range
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            const r = range();
            if (r) void exportCsv(r.from, r.to);
          }}
        >
          Export range
        </button>
        <button type="button" className="secondary" onClick={() => void exportCsv(today, today)}>
          Export today
        </button>
      </form>
      {report ? (
        <>
          <h2>
            {dayText(report.from)} to {dayText(report.to)}
          </h2>
          <TakingsCards totals={report.totals} label="Totals for the range" testPrefix="range" />
          <TakingsChart report={report} />
          <div className="breakdowns">
            <TakingsBreakdown
              title="By network"
              testId="by-network"
              rows={report.byNetwork.map((r) => ({ ...r, key: r.network, label: networkLabel(r.network) }))}
            />
            <TakingsBreakdown
              title="By till"
              testId="by-till"
              rows={report.byTill.map((r) => ({ ...r, key: r.tillId, label: r.tillId === till.id ? till.name : r.tillId }))}
            />
          </div>
        </>
      ) : null}
    </section>
  );
}
