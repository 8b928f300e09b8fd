/** The till's name (shown on every screen and receipt), time zone (for takings days) and idle lock. */
import { useState, type FormEvent } from 'react';
import { call } from '../api';
import { LabelledInput } from '../components/labelled-input';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';
import { SectionSaveFooter, useSectionSave } from './section-save';

type Props = { tillName: string; timeZone: string; idleLockMinutes: number; onSaved: () => void };
type Values = { name: string; zone: string; idle: string };

export function TillForm({ tillName, timeZone, idleLockMinutes, onSaved }: Props) {
  const kept = useKeptValues<Values>('till');
  const [name, setName] = useState(kept?.name ?? tillName);
  const [zone, setZone] = useState(kept?.zone ?? timeZone);
  const [idle, setIdle] = useState(kept?.idle ?? String(idleLockMinutes));
  const unsaved = useUnsaved<Values>('till', 'This till', { name, zone, idle });
  const { message, save, refuse } = useSectionSave(unsaved, onSaved);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minutes = Number(idle);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 240) return refuse('Lock after: a whole number of minutes from 1 to 240.');
    const request = { tillName: name.trim(), timeZone: zone.trim(), idleLockMinutes: minutes };
    void save({ name, zone, idle }, () => call('settings:saveTill', request), 'Till details saved.');
  };
  return (
    <form className="till-form" onSubmit={submit} aria-labelledby="till-form-title">
      <h2 id="till-form-title">This till</h2>
      <div className="env-grid">
        <LabelledInput id="till-name" label="Till name" maxLength={40} value={name} onChange={setName} />
        <LabelledInput id="till-zone" label="Time zone" maxLength={64} value={zone} onChange={setZone} />
        <LabelledInput
          id="till-idle"
          label="Lock after (minutes without use)"
          inputMode="numeric"
          maxLength={3}
          value={idle}
          onChange={setIdle}
        />
      </div>
      <SectionSaveFooter message={message} submit="Save till details" dirty={unsaved.dirty} unsavedTestId="till-form-unsaved" />
    </form>
  );
}
