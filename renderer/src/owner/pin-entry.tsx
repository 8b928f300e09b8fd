/** Unlock the owner screens with the PIN. */
import { useRef, useState, type FormEvent } from 'react';
import { call, errorMessage } from '../api';
import { FieldError } from '../components/field-error';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';

/** `why`: what the PIN is asked for (default: the owner screens). */
export function PinEntry({
  onUnlocked,
  why = 'Takings and settings are for the owner. Enter the PIN to continue.',
}: {
  onUnlocked: () => void;
  why?: string;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  useFocusOnArrival(ref);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await call('owner:unlock', { pin });
      if (answer.ok) onUnlocked();
      else {
        setError(answer.message ?? 'That PIN is not right.');
        setPin('');
        ref.current?.focus();
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="pin-form" onSubmit={(e) => void submit(e)} aria-labelledby="pin-title">
      <h1 id="pin-title" className="screen-title">
        Owner PIN
      </h1>
      <p>{why}</p>
      <div className="field">
        <label htmlFor="owner-pin">PIN</label>
        <input
          ref={ref}
          id="owner-pin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={16}
          value={pin}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'owner-pin-error' : undefined}
          onChange={(e) => setPin(e.target.value)}
        />
        <FieldError id="owner-pin-error" message={error} />
      </div>
      <button type="submit" className="primary">
        Unlock
      </button>
    </form>
  );
}
