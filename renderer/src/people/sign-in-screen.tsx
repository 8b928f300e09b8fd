/** Front door of people/ (what other folders may use): SignInScreen, FirstStart, SessionBadge, useSession, StaffScreen, AuditScreen. */
/** "Who is selling?": a PIN identifies the person; tapping a name first is optional. */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PersonView } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';
import { FieldError } from '../components/field-error';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import './people.css';

type Props = { onSignedIn: () => void; reason: string | null };

export function SignInScreen({ onSignedIn, reason }: Props) {
  const [people, setPeople] = useState<PersonView[]>([]);
  const [chosen, setChosen] = useState<PersonView | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pinRef = useRef<HTMLInputElement>(null);
  useFocusOnArrival(pinRef);

  useEffect(() => {
    call('session:people', {}).then(
      (answer) => setPeople(answer.people),
      () => undefined,
    );
  }, []);

  const choose = (person: PersonView) => {
    setChosen((current) => (current?.id === person.id ? null : person));
    setError(null);
    pinRef.current?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || pin === '') return;
    setBusy(true);
    try {
      await call('session:signIn', chosen ? { pin, staffId: chosen.id } : { pin });
      setError(null);
      onSignedIn();
    } catch (err) {
      setError(errorMessage(err));
      pinRef.current?.focus();
    } finally {
      setPin('');
      setBusy(false);
    }
  };

  return (
    <section className="sign-in-screen" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title" className="screen-title">
        Who is selling?
      </h1>
      {reason ? <p className="sign-in-reason">{reason}</p> : null}
      <p>Type your PIN and press Enter. You may tap your name first.</p>
      <PeopleChoice people={people} chosen={chosen} onChoose={choose} />
      <form className="pin-form" onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor="sign-in-pin">{chosen ? `PIN for ${chosen.name}` : 'Your PIN'}</label>
          <input
            ref={pinRef}
            id="sign-in-pin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={pin}
            aria-describedby={error ? 'sign-in-error' : undefined}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          />
          <FieldError id="sign-in-error" message={error} />
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </section>
  );
}

type ChoiceProps = { people: PersonView[]; chosen: PersonView | null; onChoose: (person: PersonView) => void };

/** The people who may sign in, as buttons: tapping a name is optional (the PIN alone identifies). */
function PeopleChoice({ people, chosen, onChoose }: ChoiceProps) {
  if (people.length === 0) return null;
  return (
    <div className="people-list" role="group" aria-label="Your name (optional)">
      {people.map((person) => (
        <button
          key={person.id}
          type="button"
          className="secondary person"
          aria-pressed={chosen?.id === person.id}
          onClick={() => onChoose(person)}
        >
          {person.name}
        </button>
      ))}
    </div>
  );
}
