/**
 * The amount box, as the shop writes prices: cedis first with a decimal point (12.5 is GH₵12.50), or
 * pesewas first (1 2 5 0 is GH₵12.50) where the owner chose it. Enter moves on to the number.
 */
import { forwardRef, type KeyboardEvent } from 'react';
import type { AmountEntry } from '../../../shared/money';
import { formatGhs } from '../../../shared/money';
import { FieldError } from '../components/field-error';
import { amountPesewas, amountText, POINT_REFUSED_PESEWAS } from './sale-form';

type Props = {
  amount: string;
  entry: AmountEntry;
  error: string | undefined;
  readOnly: boolean;
  onText: (text: string) => void;
  onRefused: (message: string) => void;
  onEnter: () => void;
  onFocus: () => void;
};

const HINTS: Record<AmountEntry, string> = {
  cedis: 'Type cedis; a point for pesewas: 5 is GH₵5.00, 12.5 is GH₵12.50. Enter goes to the number.',
  pesewas: 'Type pesewas first: 1 2 5 0 is GH₵12.50. Enter goes to the number.',
};

export const AmountField = forwardRef<HTMLInputElement, Props>(function AmountField(
  { amount, entry, error, readOnly, onText, onRefused, onEnter, onFocus },
  ref,
) {
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onEnter();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onText('');
    } else if (e.key === '.' && entry === 'pesewas') {
      e.preventDefault();
      onRefused(POINT_REFUSED_PESEWAS);
    }
  };
  const pesewas = amountPesewas(amount, entry);
  return (
    <div className="field amount-field">
      <label htmlFor="amount">Amount (GH₵)</label>
      <input
        ref={ref}
        id="amount"
        className="amount-input"
        inputMode="decimal"
        autoComplete="off"
        placeholder="GH₵0.00"
        readOnly={readOnly}
        value={amountText(amount, entry)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'amount-error amount-hint' : 'amount-hint'}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          onFocus();
          const el = e.currentTarget;
          // A click lands the caret mid-amount; typing goes on at the end (a whole selection stays, to be replaced).
          requestAnimationFrame(() => {
            if (el.selectionStart === 0 && el.selectionEnd === el.value.length) return;
            el.setSelectionRange(el.value.length, el.value.length);
          });
        }}
      />
      <p className="hint" id="amount-hint">
        {pesewas !== null && entry === 'cedis' ? (
          <>
            <output className="amount-value" data-testid="amount-value">
              {formatGhs(pesewas)}
            </output>
            {' · '}
          </>
        ) : null}
        {HINTS[entry]}
      </p>
      <FieldError id="amount-error" message={error} />
    </div>
  );
});
