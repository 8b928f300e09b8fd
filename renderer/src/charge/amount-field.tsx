/** The amount box: cents-first digits formatted as GH₵ while typed; Enter moves on to the number. */
import { forwardRef, type KeyboardEvent } from 'react';
import { FieldError } from '../components/field-error';
import { amountText, digitsFromAmountText } from './sale-form';

type Props = {
  digits: string;
  error: string | undefined;
  onDigits: (digits: string) => void;
  onEnter: () => void;
  onFocus: () => void;
};

export const AmountField = forwardRef<HTMLInputElement, Props>(function AmountField({ digits, error, onDigits, onEnter, onFocus }, ref) {
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onEnter();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onDigits('');
    }
  };
  return (
    <div className="field amount-field">
      <label htmlFor="amount">Amount (GH₵)</label>
      <input
        ref={ref}
        id="amount"
        className="amount-input"
        inputMode="numeric"
        autoComplete="off"
        placeholder="GH₵0.00"
        value={amountText(digits)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'amount-error' : 'amount-hint'}
        onChange={(e) => onDigits(digitsFromAmountText(e.target.value, digits))}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          onFocus();
          const el = e.currentTarget;
          requestAnimationFrame(() => el.setSelectionRange(el.value.length, el.value.length));
        }}
      />
      <p className="hint" id="amount-hint">
        Type pesewas first: 1 2 5 0 is GH₵12.50. Enter goes to the number.
      </p>
      <FieldError id="amount-error" message={error} />
    </div>
  );
});
