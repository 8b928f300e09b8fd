import { LabelledInput, type LabelledInputProps } from './labelled-input';

type PinFieldProps = Pick<LabelledInputProps, 'id' | 'label' | 'value' | 'onChange' | 'inputRef' | 'describedBy' | 'children'>;

/** A PIN box in its field: the numeric keypad, hidden as typed, never offered for autofill. */
export function PinField(props: PinFieldProps) {
  return <LabelledInput {...props} type="password" inputMode="numeric" autoComplete="off" />;
}
