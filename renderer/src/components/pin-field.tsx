import type { ReactNode, Ref } from 'react';

type PinFieldProps = {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The id of the error that explains this box, while there is one. */
  describedBy?: string;
  /** Shown under the box (its error). */
  children?: ReactNode;
};

/** A PIN box in its field: the numeric keypad, hidden as typed, never offered for autofill. */
export function PinField({ id, label, value, onChange, inputRef, describedBy, children }: PinFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      {children}
    </div>
  );
}
