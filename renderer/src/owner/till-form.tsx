/** The till's name (shown on every screen and receipt) and time zone (for takings days). */
import { useState, type FormEvent } from 'react';
import { call, errorMessage } from '../api';

export function TillForm({ tillName, timeZone, onSaved }: { tillName: string; timeZone: string; onSaved: () => void }) {
  const [name, setName] = useState(tillName);
  const [zone, setZone] = useState(timeZone);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await call('settings:saveTill', { tillName: name.trim(), timeZone: zone.trim() });
      setMessage({ ok: true, text: 'Till details saved.' });
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
      </div>
      {message ? (
        <p className={message.ok ? 'ok-text' : 'form-error'} role="status">
          {message.text}
        </p>
      ) : null}
      <button type="submit" className="secondary">
        Save till details
      </button>
    </form>
  );
}
