/** The owner's audit log: who did what and when, filtered by action, person and dates, exported as CSV. */
import { useCallback, useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction } from '../../../shared/audit-actions';
import { call, errorMessage } from '../api';
import { dateTime } from '../format';
import { useCoreRead } from '../hooks/use-core-read';
import { downloadCsv } from '../owner/download-csv';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { TableHead } from '../components/table-head';

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

export function AuditScreen({ timeZone }: { timeZone: string }) {
  const [action, setAction] = useState<AuditAction | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query = useCallback(
    () => ({ ...(action ? { action } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) }),
    [action, from, to],
  );
  const readEntries = useCallback(async () => (await call('audit:list', query())).entries, [query]);
  const { value, error, setError } = useCoreRead(readEntries);
  const entries = value ?? [];

  const exportCsv = async () => {
    try {
      const file = await call('audit:exportCsv', query());
      downloadCsv(file.filename, file.csv);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <Screen name="audit" title="Audit log">
      <div className="filters">
        <label>
          What
          <select value={action} onChange={(e) => setAction(e.target.value as AuditAction | '')}>
            <option value="">Everything</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {LABELS[a]}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="button" className="secondary" onClick={() => void exportCsv()}>
          Export CSV
        </button>
      </div>
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
