/** Typing into the sale's amount and phone (keyboard or keypad): each change checked as it comes, its error cleared or shown. */
import { useEffect, type RefObject } from 'react';
import type { Network } from '../../../shared/domain';
import type { AmountEntry } from '../../../shared/money';
import { amountError, nextAmount, phoneError, withPhone, type FieldErrors, type SaleForm } from './sale-form';
import type { AccountLookup } from './use-account-name';

type Deps = {
  form: SaleForm;
  setForm: (update: (form: SaleForm) => SaleForm) => void;
  setErrors: (update: (errors: FieldErrors) => FieldErrors) => void;
  entry: AmountEntry;
  lookup: AccountLookup;
  phoneRef: RefObject<HTMLInputElement | null>;
};

export function useSaleFields({ form, setForm, setErrors, entry, lookup, phoneRef }: Deps) {
  // The wallet name found for the number typed goes with the sale (shown locally only).
  useEffect(() => {
    const name = lookup.state === 'found' ? lookup.name : null;
    setForm((f) => (f.customerName === name ? f : { ...f, customerName: name }));
  }, [lookup, setForm]);

  const clearError = (field: keyof FieldErrors) =>
    setErrors((e) => (e[field] || e.form ? { ...e, [field]: undefined, form: undefined } : e));

  const setAmountText = (text: string) => {
    const next = nextAmount(text, entry, form.amount);
    if ('refused' in next) {
      setErrors((e) => ({ ...e, amount: next.refused }));
      return;
    }
    setForm((f) => ({ ...f, amount: next.amount }));
    clearError('amount');
  };
  const setPhone = (phone: string) => {
    setForm((f) => withPhone(f, phone));
    setErrors((e) => {
      const complete = phone.replace(/\D/g, '').length >= 10;
      const live = complete ? phoneError(phone) : null;
      return { ...e, phone: live ?? undefined, network: undefined, form: undefined };
    });
  };

  /** Leaving the number box: a number typed there is checked now. */
  const phoneLeft = () => {
    if (form.phone) setErrors((e) => ({ ...e, phone: phoneError(form.phone) ?? undefined }));
  };

  const chooseNetwork = (network: Network) => {
    setForm((f) => ({ ...f, network, networkChosen: true }));
    clearError('network');
  };

  const amountEnter = () => {
    const err = amountError(form.amount, entry);
    if (err) setErrors((e) => ({ ...e, amount: err }));
    else phoneRef.current?.focus();
  };

  const onKeypad = (key: string, target: 'amount' | 'phone') => {
    if (target === 'amount') {
      setAmountText(key === 'back' ? form.amount.slice(0, -1) : `${form.amount}${key}`);
    } else {
      const next = key === 'back' ? form.phone.slice(0, -1) : `${form.phone}${key}`.slice(0, 10);
      setPhone(next);
    }
  };

  return { setAmountText, setPhone, phoneLeft, chooseNetwork, amountEnter, onKeypad };
}
