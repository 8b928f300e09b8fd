/** The owner's audit log: who did what and when, filtered by action, person and dates, exported as CSV. */
import { useCallback, useState, type FormEvent } from 'react';
import { AUDIT_ACTIONS, type AuditAction } from '../../../shared/audit-actions';
import { call, errorMessage } from '../api';
import { dateTime, parseDayText } from '../format';
import { DateField } from '../components/date-field';
import { useCoreRead } from '../hooks/use-core-read';
import { downloadCsv } from '../download-csv';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { SelectOptions } from '../components/select-options';
import { TableHead } from '../components/table-head';
import './people.css';

const LABELS: Record<AuditAction, string> = {
  sign_in: 'Signed in',
  sign_out: 'Signed out',
  lock: 'Till locked',
  pin_failed: 'Wrong PIN',
  pin_lockout: 'PIN locked out',
  pin_refused: 'PIN refused (locked out)',
  owner_pin_set: 'Owner PIN set',
  staff_added: 'Staff added',
  staff_changed: 'Staff changed',
  shift_open: 'Shift opened',
  shift_close: 'Shift closed',
  day_close: 'Day closed',
  settle_by_hand: 'Settled by hand',
  alert_acknowledged: 'Alert acknowledged',
  environment: 'TEST/LIVE switched',
  settings_changed: 'Settings changed',
};

/**
 * A day-first date box that filters when it is left or Enter is pressed: empty means no bound; a mistake is
 * named next to the box, what was typed stays, and the filter keeps its last good date.
 */
function useDayBound() {
  const [text, setText] = useState('');
  const [date, setDate] = useState('');
  const [error, setError] = useState<string | undefined>();
  /** The bound now typed ('' for none), or null when it is not a date. */
  const apply = (): string | null => {
    const parsed = text.trim() === '' ? ({ ok: true, date: '' } as const) : parseDayText(text);
    setError(parsed.ok ? undefined : parsed.message);
    if (!parsed.ok) return null;
    setDate(parsed.date);
    return parsed.date;
  };
  return { text, setText, date, error, apply };
}

export function AuditScreen({ timeZone }: { timeZone: string }) {
  const [action, setAction] = useState<AuditAction | ''>('');
  const from = useDayBound();
  const to = useDayBound();

  const query = useCallback(
    (bounds = { from: from.date, to: to.date }) => ({
      ...(action ? { action } : {}),
      ...(bounds.from ? { from: bounds.from } : {}),
      ...(bounds.to ? { to: bounds.to } : {}),
    }),
    [action, from.date, to.date],
  );
  const readEntries = useCallback(async () => (await call('audit:list', query())).entries, [query]);
  const { value, error, setError } = useCoreRead(readEntries);
  const entries = value ?? [];

  // The dates as typed now (a box may not have been left yet); a mistake stops the export and is shown.
  const exportCsv = async () => {
    const bounds = { from: from.apply(), to: to.apply() };
    if (bounds.from === null || bounds.to === null) return;
    try {
      const file = await call('audit:exportCsv', query({ from: bounds.from, to: bounds.to }));
      downloadCsv(file.filename, file.csv);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Screen name="audit" title="Audit log">
      <AuditFilters action={action} onAction={setAction} from={from} to={to} onExport={() => void exportCsv()} />
      <FormError message={error} />
      <table className="audit-table">
        <TableHead columns={['When', 'Who', 'What', 'Detail']} />
        <tbody>
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{dateTime(e.at, timeZone)}</td>
              <td>{e.actorName ?? '—'}</td>
              <td>{LABELS[e.action]}</td>
              <td>{e.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {entries.length === 0 ? <p>Nothing recorded for this choice.</p> : null}
    </Screen>
  );
}

type FiltersProps = {
  action: AuditAction | '';
  onAction: (action: AuditAction | '') => void;
  from: ReturnType<typeof useDayBound>;
  to: ReturnType<typeof useDayBound>;
  onExport: () => void;
};

/** What, From and To (Enter or leaving a date box filters), and the export of what they choose. */
function AuditFilters({ action, onAction, from, to, onExport }: FiltersProps) {
  return (
    <form
      className="filters"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        from.apply();
        to.apply();
      }}
    >
      <div className="field">
        <label htmlFor="audit-action">What</label>
        <select id="audit-action" value={action} onChange={(e) => onAction(e.target.value as AuditAction | '')}>
          <SelectOptions none="Everything" choices={AUDIT_ACTIONS.map((a) => ({ value: a, label: LABELS[a] }))} />
        </select>
      </div>
      <DateField id="audit-from" label="From" text={from.text} error={from.error} onText={from.setText} onBlur={from.apply} />
      <DateField id="audit-to" label="To" text={to.text} error={to.error} onText={to.setText} onBlur={to.apply} />
      <button type="submit" className="secondary">
        Show
      </button>
      <button type="button" className="secondary" onClick={onExport}>
        Export CSV
      </button>
    </form>
  );
}
