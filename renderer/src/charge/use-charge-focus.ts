/** Where the focus goes on Charge: on arrival, and to the field a refused charge names. */
import { useLayoutEffect, type RefObject } from 'react';
import type { FieldErrors } from './sale-form';

type Refs = {
  amountRef: RefObject<HTMLInputElement | null>;
  phoneRef: RefObject<HTMLInputElement | null>;
  chargeRef: RefObject<HTMLButtonElement | null>;
};

export function useChargeFocus({ amountRef, phoneRef, chargeRef }: Refs, selectAmount: boolean, refused: boolean) {
  // On arrival: the amount, caret at the end (a digit typed on the result screen is already in it), or
  // all of it selected after "try again"; a payment the service refused lands on Charge with why.
  // A layout effect, like useFocusOnArrival: no key press can land between the screen and its focus.
  useLayoutEffect(() => {
    const amount = amountRef.current;
    if (refused || !amount) {
      chargeRef.current?.focus();
      return;
    }
    amount.focus();
    if (selectAmount) amount.select();
    else amount.setSelectionRange(amount.value.length, amount.value.length);
    // Only on mount and when a refusal arrives, never while typing.
  }, [selectAmount, refused, amountRef, chargeRef]);

  return (field: keyof FieldErrors | null) => {
    if (field === 'amount') amountRef.current?.focus();
    else if (field === 'phone') phoneRef.current?.focus();
    else if (field === 'network') document.getElementById('network')?.focus();
    else if (field === 'description') document.getElementById('description')?.focus();
    else if (field === 'form') chargeRef.current?.focus();
  };
}
