/** One box of an environment's details: its label, an optional hint (what is saved) and its error. */
import { FieldError } from '../components/field-error';

type Props = {
  /** The input's id; its hint and error ids are made from it. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The save failed on this field: shown under it and announced by the input. */
  error: string | null;
  secret?: boolean;
  placeholder?: string;
  hint?: string;
};

export function EnvironmentField({ id, label, value, onChange, error, secret, placeholder, hint }: Props) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error !== null ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={secret ? 'password' : 'text'}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={value}
        aria-invalid={error !== null ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint ? (
        <p className="hint" id={hintId} data-testid={hintId}>
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
