import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

export type LabelledInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'aria-describedby'> & {
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

/** A text box in its field: the label tied to it, its other input attributes as given, its error under it. */
export function LabelledInput({ id, label, value, onChange, inputRef, describedBy, children, ...input }: LabelledInputProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input ref={inputRef} id={id} {...input} value={value} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />
      {children}
    </div>
  );
}
