/**
 * A date as the till's locale writes it (en-GH, day first: 22/11/2026), typed in a plain text box:
 * a native date box follows the browser's locale (10/24/2026 in a US one), whatever the till's is.
 */
import { FieldError } from './field-error';

type Props = {
  id: string;
  label: string;
  text: string;
  error: string | undefined;
  onText: (text: string) => void;
  onBlur: () => void;
};

export function DateField({ id, label, text, error, onText, onBlur }: Props) {
  const hint = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field date-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        spellCheck={false}
        maxLength={12}
        placeholder="dd/mm/yyyy"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hint} ${errorId}` : hint}
        onChange={(e) => onText(e.target.value)}
        onBlur={onBlur}
      />
      <span className="hint" id={hint}>
        Day first: 22/11/2026
      </span>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
