/** Front door of takings/ (what other folders may use): TakingsScreen; day/ shows TakingsCards, TakingsBreakdown, takings.css. */
/** Takings: today's cards, the last 30 days (or any range) as a chart, by network, till and cashier, CSV. */
import { useCallback, useEffect, useState } from 'react';
import type { TakingsReport } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';
import { useAnnounce } from '../components/announcer';
import { addDays, dayText, isoDate } from '../format';
import { downloadCsv } from '../download-csv';
import { TakingsAwaiting } from './takings-awaiting';
import { TakingsByHand } from './takings-by-hand';
import { TakingsUnsent } from './takings-unsent';
import { TakingsCards } from './takings-cards';
import { TakingsRangeForm, TakingsRangeReport, useTypedRange } from './takings-range';
import { FormError } from '../components/form-error';
import type { CashierChoice } from '../components/cashier-picker';
import { TakingsCashier } from './takings-cashier';
import { Screen } from '../components/screen';
import './takings.css';

export function TakingsScreen({ timeZone, till }: { timeZone: string; till: { id: string; name: string } }) {
  const today = isoDate(new Date(), timeZone);
  const typed = useTypedRange(today);
  const [todayReport, setTodayReport] = useState<TakingsReport | null>(null);
  const [report, setReport] = useState<TakingsReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const announce = useAnnounce();

  const [range, setRange] = useState({ from: addDays(today, -29), to: today });
  const [cashier, setCashier] = useState<CashierChoice>(undefined);

  const load = useCallback(
    async (f: string, t: string, who: CashierChoice) => {
      if (f > t) {
        setError('The first date must not be after the last date.');
        return;
      }
      const cashierId = who === undefined ? {} : { cashierId: who };
      try {
        const [day, range] = await Promise.all([
          call('takings:report', { from: today, to: today, ...cashierId }),
          call('takings:report', { from: f, to: t, ...cashierId }),
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
    void load(range.from, range.to, cashier);
  }, [load, range, cashier]);

  const exportCsv = async (first: string, last: string) => {
    try {
      const file = await call('takings:exportCsv', { from: first, to: last, ...(cashier === undefined ? {} : { cashierId: cashier }) });
      downloadCsv(file.filename, file.csv);
      announce(`Saved ${file.filename}`);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Screen name="takings" title="Takings">
      <FormError message={error} />
      {report ? <TakingsCashier report={report} value={cashier} onChange={setCashier} /> : null}
      <h2>Today ({dayText(today)})</h2>
      <p className="hint" data-testid="takings-day-rule">
        A payment counts on the day its result arrived. History lists it by the day it was started, and says so when the two differ.
      </p>
      {todayReport ? <TakingsCards totals={todayReport.totals} label="Today's totals" testPrefix="today" /> : <p>Loading…</p>}
      {todayReport ? <TakingsByHand totals={todayReport.byHand} testId="today-by-hand" /> : null}
      {todayReport ? <TakingsAwaiting awaiting={todayReport.awaiting} /> : null}
      {todayReport ? <TakingsUnsent unsent={todayReport.unsent} testId="today-unsent" /> : null}
      <TakingsRangeForm
        typed={typed}
        onShow={setRange}
        onExport={(r) => void exportCsv(r.from, r.to)}
        onExportToday={() => void exportCsv(today, today)}
      />
      {report ? <TakingsRangeReport report={report} till={till} /> : null}
    </Screen>
  );
}
