/** Front door of shifts/ (what other folders may use): ShiftsScreen, for screens.tsx. */
/**
 * Shifts, for every signed-in person: their own open shift's report first (Close shift, Print), then
 * the list of shifts (a cashier's own; everyone's, or one person's, for a manager or the owner), each
 * viewable and printable. A closed shift's report is the one stored at its close and never changes.
 */
import { useCallback, useEffect, useState } from 'react';
import type { PersonView, ShiftReport, ShiftSummary } from '../../../shared/ipc/contract';
import { call, errorMessage, onEvent } from '../api';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { ShiftList } from './shift-list';
import { ShiftReportPanel } from './shift-report-panel';
import './shifts.css';

type Props = { timeZone: string; person: PersonView };

export function ShiftsScreen({ timeZone, person }: Props) {
  const seesAll = person.role !== 'cashier';
  const [shown, setShown] = useState<ShiftReport | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [shifts, setShifts] = useState<ShiftSummary[]>([]);
  const [people, setPeople] = useState<PersonView[] | null>(null);
  const [staffId, setStaffId] = useState('');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setShown(viewing ? await call('shifts:get', { id: viewing }) : await call('shifts:current', {}));
      setShifts((await call('shifts:list', staffId ? { staffId } : {})).shifts);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [viewing, staffId]);
  useEffect(() => void load(), [load]);
  // An open shift's figures follow its payments' results; back from a lock they are read again.
  useEffect(() => onEvent('payment:updated', () => void load()), [load]);
  useEffect(() => onEvent('session:changed', (p) => p.signedIn && void load()), [load]);
  useEffect(() => {
    if (seesAll)
      void call('session:people', {}).then(
        (r) => setPeople(r.people),
        () => setPeople([]),
      );
  }, [seesAll]);

  const title = viewing ? `${shown?.staffName ?? ''}'s shift` : 'Your shift';
  return (
    <Screen name="shifts" title="Shift">
      <FormError message={error} />
      <section aria-labelledby="shift-report-title">
        <h2 id="shift-report-title">{title}</h2>
        {viewing ? (
          <button type="button" className="secondary small" onClick={() => setViewing(null)}>
            Back to your shift
          </button>
        ) : null}
        {shown ? (
          <ShiftReportPanel
            key={shown.id}
            report={shown}
            timeZone={timeZone}
            own={shown.staffId === person.id}
            mayClose={seesAll || shown.staffId === person.id}
            onClosed={(report) => {
              setShown(report);
              // Closing your own shift signs you out: the sign-in covers this screen.
              if (report.staffId !== person.id) void load();
            }}
          />
        ) : (
          <p>No shift of yours is open: one opens when you sign in.</p>
        )}
      </section>
      <ShiftList
        shifts={shifts}
        timeZone={timeZone}
        people={seesAll ? (people ?? []) : null}
        staffId={staffId}
        onStaffId={setStaffId}
        onView={setViewing}
      />
    </Screen>
  );
}
