/** First run: the owner chooses the PIN (4–6 digits, typed twice; the core says what is wrong with it). Also used to change it. */
import { useRef, useState, type FormEvent } from 'react';
import { call, errorMessage } from '../api';
import { FieldError } from '../components/field-error';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { PinField } from '../components/pin-field';
import { useUnsaved } from '../unsaved/use-unsaved';

type Props = { mode: 'first' | 'change'; onDone: () => void };

const PIN_SECRET = { all: 'the new owner PIN' };

export function PinSetup({ mode, onDone }: Props) {
  const [current, setCurrent] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  // A PIN change half typed counts as unsaved (the first PIN is not a section of Settings); a lock never keeps it.
  useUnsaved('owner-pin', 'Change the owner PIN', mode === 'change' ? [current, pin, again] : [], PIN_SECRET);
  useFocusOnArrival(ref, mode === 'first');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    if (pin !== again) return setError('The two PINs are not the same; type them again.');
    try {
      await call('owner:setPin', mode === 'change' ? { pin, currentPin: current } : { pin });
      setPin('');
      setAgain('');
      setCurrent('');
      setError(null);
      setDone(true);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const prefix = mode === 'first' ? 'first' : 'change';
  return (
    <form className="pin-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${prefix}-pin-title`}>
      {mode === 'first' ? (
        <>
          <h1 id={`${prefix}-pin-title`} className="screen-title">
            Choose the owner PIN
          </h1>
          <p>
            This PIN keeps the takings, the day’s close and the settings for you alone. Choose 4 to 6 digits and do not tell it to your
            cashiers.
          </p>
        </>
      ) : (
        <h2 id={`${prefix}-pin-title`}>Change the owner PIN</h2>
      )}
      {mode === 'change' ? <PinField id={`${prefix}-current`} label="Current PIN" value={current} onChange={setCurrent} /> : null}
      <PinField id={`${prefix}-new`} label="New PIN" value={pin} onChange={setPin} inputRef={ref} />
      <PinField
        id={`${prefix}-again`}
        label="New PIN again"
        value={again}
        onChange={setAgain}
        describedBy={error ? `${prefix}-pin-error` : undefined}
      >
        <FieldError id={`${prefix}-pin-error`} message={error} />
      </PinField>
      {done && mode === 'change' ? (
        <p className="ok-text" role="status">
          PIN changed.
        </p>
      ) : null}
      <button type="submit" className="primary">
        {mode === 'first' ? 'Set the PIN' : 'Change the PIN'}
      </button>
    </form>
  );
}
