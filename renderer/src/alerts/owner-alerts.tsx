/** Front door of alerts/ (what other folders may use): OwnerAlerts, shown by app.tsx while the owner is signed in. */
/**
 * The owner's alerts (a settle by hand that the service's own result overrode), on every screen while the
 * owner is signed in, each until the owner acknowledges it. Read again whenever the core says they changed.
 */
import { useEffect } from 'react';
import { call, errorMessage, onEvent } from '../api';
import { dateTime } from '../format';
import { useCoreRead } from '../hooks/use-core-read';
import { FormError } from '../components/form-error';
import './alerts.css';

const readAlerts = async () => (await call('alerts:list', {})).items;

export function OwnerAlerts({ timeZone }: { timeZone: string }) {
  const { value, error, setError, reload: load } = useCoreRead(readAlerts);
  const alerts = value ?? [];
  useEffect(() => onEvent('alerts:changed', () => void load()), [load]);

  const acknowledge = async (id: number) => {
    try {
      await call('alerts:acknowledge', { id });
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  if (alerts.length === 0 && !error) return null;
  return (
    <section className="owner-alerts" aria-labelledby="owner-alerts-title" data-testid="owner-alerts">
      <h2 id="owner-alerts-title">{alerts.length === 1 ? 'An alert for the owner' : `${alerts.length} alerts for the owner`}</h2>
      <FormError message={error} />
      <ul>
        {alerts.map((a) => (
          <li key={a.id} data-testid="owner-alert">
            <p role="alert">
              {a.environment === 'test' ? '[TEST] ' : ''}
              {dateTime(a.raisedAt, timeZone)}: {a.message}
            </p>
            <button type="button" className="secondary" onClick={() => void acknowledge(a.id)}>
              Acknowledge
              <span className="visually-hidden"> this alert</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
