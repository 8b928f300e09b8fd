/** Takings over a chosen range: the dates typed for it, the form that shows (and exports) it, and its report. */
import { useState, type FormEvent } from 'react';
import type { TakingsReport } from '../../../shared/ipc/contract';
import { DateField } from '../components/date-field';
import { addDays, dayText, networkLabel, parseDayText } from '../format';
import { TakingsBreakdown } from './takings-breakdown';
import { TakingsCards } from './takings-cards';
import { TakingsChart } from './takings-chart';
import { TakingsUnsent } from './takings-unsent';

type Range = { from: string; to: string };

/** The From and To boxes' text (the last 30 days at first) and the mistakes found in them. */
export function useTypedRange(today: string) {
  const [fromText, setFromText] = useState(() => dayText(addDays(today, -29)));
  const [toText, setToText] = useState(() => dayText(today));
  const [dateErrors, setDateErrors] = useState<{ from?: string; to?: string }>({});

  /** A typed date checked when its box is left, so a mistake is named next to it before anything is asked. */
  const check = (field: 'from' | 'to', typed: string) => {
    const parsed = parseDayText(typed);
    setDateErrors((errors) => ({ ...errors, [field]: parsed.ok ? undefined : parsed.message }));
  };

  /** Both dates as YYYY-MM-DD, or undefined with each mistake shown next to its box (what was typed stays). */
  const range = (): Range | undefined => {
    const [f, t] = [parseDayText(fromText), parseDayText(toText)];
    setDateErrors({ from: f.ok ? undefined : f.message, to: t.ok ? undefined : t.message });
    if (!f.ok) document.getElementById('range-from')?.focus();
    else if (!t.ok) document.getElementById('range-to')?.focus();
    return f.ok && t.ok ? { from: f.date, to: t.date } : undefined;
  };

  return { fromText, setFromText, toText, setToText, dateErrors, check, range };
}

type FormProps = {
  typed: ReturnType<typeof useTypedRange>;
  onShow: (range: Range) => void;
  onExport: (range: Range) => void;
  onExportToday: () => void;
};

export function TakingsRangeForm({ typed, onShow, onExport, onExportToday }: FormProps) {
  const { fromText, setFromText, toText, setToText, dateErrors, check, range } = typed;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = range();
    if (r) onShow(r);
  };
  return (
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
          if (r) onExport(r);
        }}
      >
        Export range
      </button>
      <button type="button" className="secondary" onClick={onExportToday}>
        Export today
      </button>
    </form>
  );
}

export function TakingsRangeReport({ report, till }: { report: TakingsReport; till: { id: string; name: string } }) {
  return (
    <>
      <h2>
        {dayText(report.from)} to {dayText(report.to)}
      </h2>
      <TakingsCards totals={report.totals} label="Totals for the range" testPrefix="range" />
      <TakingsUnsent unsent={report.unsent} testId="range-unsent" />
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
          rows={report.byTill.map((r) => ({ ...r, key: r.tillId, label: r.tillId === till.id ? till.name : (r.tillName ?? r.tillId) }))}
        />
        {report.byCashier.some((r) => r.cashierId !== null) ? (
          <TakingsBreakdown
            title="By cashier"
            testId="by-cashier"
            rows={report.byCashier.map((r) => ({ ...r, key: r.cashierId ?? '', label: r.cashier ?? 'Nobody signed in' }))}
          />
        ) : null}
      </div>
    </>
  );
}
