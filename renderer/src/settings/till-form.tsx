/** The till's name (shown on every screen and receipt), time zone (for takings days) and idle lock. */
import { useState, type FormEvent } from 'react';
import { call, errorMessage } from '../api';
import { UnsavedMark } from '../unsaved/unsaved-mark';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';

type Props = { tillName: string; timeZone: string; idleLockMinutes: number; onSaved: () => void };
type Values = { name: string; zone: string; idle: string };

export function TillForm({ tillName, timeZone, idleLockMinutes, onSaved }: Props) {
  const kept = useKeptValues<Values>('till');
  const [name, setName] = useState(kept?.name ?? tillName);
  const [zone, setZone] = useState(kept?.zone ?? timeZone);
  const [idle, setIdle] = useState(kept?.idle ?? String(idleLockMinutes));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const unsaved = useUnsaved<Values>('till', 'This till', { name, zone, idle });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const minutes = Number(idle);
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 240)
        return setMessage({ ok: false, text: 'Lock after: a whole number of minutes from 1 to 240.' });
      await call('settings:saveTill', { tillName: name.trim(), timeZone: zone.trim(), idleLockMinutes: minutes });
      setMessage({ ok: true, text: 'Till details saved.' });
      unsaved.saved({ name, zone, idle });
      onSaved();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    }
  };
  return (
    <form className="till-form" onSubmit={(e) => void save(e)} aria-labelledby="till-form-title">
      <h2 id="till-form-title">This till</h2>
      <div className="env-grid">
        <div className="field">
          <label htmlFor="till-name">Till name</label>
          <input id="till-name" maxLength={40} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="till-zone">Time zone</label>
          <input id="till-zone" maxLength={64} value={zone} onChange={(e) => setZone(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="till-idle">Lock after (minutes without use)</label>
          <input id="till-idle" inputMode="numeric" maxLength={3} value={idle} onChange={(e) => setIdle(e.target.value)} />
        </div>
      </div>
      {message ? (
        <p className={message.ok ? 'ok-text' : 'form-error'} role="status">
          {message.text}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="secondary">
          Save till details
        </button>
        <UnsavedMark dirty={unsaved.dirty} testId="till-form-unsaved" />
      </div>
    </form>
  );
}
