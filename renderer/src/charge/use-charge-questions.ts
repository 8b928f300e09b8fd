/**
 * Charge's questions before a charge (an amount outside the shop's bounds, a number with no wallet…):
 * each one answered yes is remembered for this press of Charge only; a lookup in flight is not waited for.
 */
import { useRef, useState, type RefObject } from 'react';
import type { CounterSettings } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { nextCheck, type ChargeCheck, type CheckKind } from './charge-checks';
import { checkForm, type FieldErrors, type SaleForm } from './sale-form';
import type { AccountLookup } from './use-account-name';

type Deps = {
  form: SaleForm;
  entry: AmountEntry;
  counter: CounterSettings | null;
  lookup: AccountLookup;
  later: () => Promise<AccountLookup> | null;
  charge: (customerName: string | null, later: Promise<AccountLookup> | null) => Promise<keyof FieldErrors | null>;
  focusField: (field: keyof FieldErrors | null) => void;
  amountRef: RefObject<HTMLInputElement | null>;
  phoneRef: RefObject<HTMLInputElement | null>;
};

export function useChargeQuestions({ form, entry, counter, lookup, later, charge, focusField, amountRef, phoneRef }: Deps) {
  const [asking, setAsking] = useState<{ check: ChargeCheck; accepted: CheckKind[] } | null>(null);
  const busy = useRef(false);

  // Each question answered yes is remembered for this press of Charge only; a lookup in flight is not waited for.
  const proceed = async (accepted: CheckKind[]) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const checked = checkForm(form, entry);
      const check = checked.ok && counter ? await nextCheck(checked.input, counter, lookup, accepted) : null;
      setAsking(check ? { check, accepted } : null);
      if (check) return;
      focusField(await charge(lookup.state === 'found' ? lookup.name : null, lookup.state === 'found' ? null : later()));
    } finally {
      busy.current = false;
    }
  };

  const goBack = (check: ChargeCheck) => {
    setAsking(null);
    // The dialog leaves; the focus goes where the answer is changed (after the dialog has gone).
    window.setTimeout(() => {
      if (check.kind === 'no-account') phoneRef.current?.focus();
      else amountRef.current?.select();
    });
  };

  return { asking, proceed, goBack };
}
