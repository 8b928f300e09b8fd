/** The customer's number, grouped as typed (024 123 4567); Enter charges (the form submits). */
import { forwardRef } from 'react';
import { FieldError } from '../components/field-error';
import { phoneFromText, phoneText } from './sale-form';

type Props = {
  phone: string;
  error: string | undefined;
  readOnly: boolean;
  onPhone: (phone: string) => void;
  onFocus: () => void;
  onBlur: () => void;
};

export const PhoneField = forwardRef<HTMLInputElement, Props>(function PhoneField(
  { phone, error, readOnly, onPhone, onFocus, onBlur },
  ref,
) {
  return (
    <div className="field phone-field">
      <label htmlFor="phone">Customer’s mobile-money number</label>
      <input
        ref={ref}
        id="phone"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        placeholder="024 123 4567"
        value={phoneText(phone)}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'phone-error' : undefined}
        onChange={(e) => onPhone(phoneFromText(e.target.value))}
        onFocus={onFocus}
        onBlur={onBlur}
      />
      <FieldError id="phone-error" message={error} />
    </div>
  );
});
