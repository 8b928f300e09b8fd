/** Charge: amount, Enter, number, Enter. Errors sit next to what caused them; nothing typed is lost. */
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { Network } from '../../../shared/domain';
import type { CounterSettings } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { AccountName } from './account-name';
import { AmountField } from './amount-field';
import { nextCheck, type ChargeCheck, type CheckKind } from './charge-checks';
import { ConfirmCharge } from './confirm-charge';
import { Keypad } from './keypad';
import { NetworkSelect } from './network-select';
import { PhoneField } from './phone-field';
import { amountError, checkForm, nextAmount, phoneError, withPhone, type FieldErrors, type SaleForm } from './sale-form';
import { useAccountName, type AccountLookup } from './use-account-name';

type Props = {
  form: SaleForm;
  setForm: (update: (form: SaleForm) => SaleForm) => void;
  errors: FieldErrors;
  setErrors: (update: (errors: FieldErrors) => FieldErrors) => void;
  charging: boolean;
  charge: (customerName: string | null, later: Promise<AccountLookup> | null) => Promise<keyof FieldErrors | null>;
  /** "Try again": the details are back, the amount focused and selected so a new one replaces it. */
  selectAmount: boolean;
  entry: AmountEntry;
  /** The shop's confirmation bounds (null until the till's status is known: no amount is questioned then). */
  counter: CounterSettings | null;
  timeZone: string;
};

export function ChargeScreen({ form, setForm, errors, setErrors, charging, charge, selectAmount, entry, counter, timeZone }: Props) {
  const amountRef = useRef<HTMLInputElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const chargeRef = useRef<HTMLButtonElement>(null);
  const [target, setTarget] = useState<'amount' | 'phone'>('amount');
  const { lookup, later } = useAccountName(form.phone, form.network);
  const [asking, setAsking] = useState<{ check: ChargeCheck; accepted: CheckKind[] } | null>(null);
  const busy = useRef(false);

  // On arrival: the amount, caret at the end (a digit typed on the result screen is already in it), or
  // all of it selected after "try again"; a payment the service refused lands on Charge with why.
  const refused = Boolean(errors.form);
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
  }, [selectAmount, refused]);

  useEffect(() => {
    const name = lookup.state === 'found' ? lookup.name : null;
    setForm((f) => (f.customerName === name ? f : { ...f, customerName: name }));
  }, [lookup, setForm]);

  const clearError = (field: keyof FieldErrors) =>
    setErrors((e) => (e[field] || e.form ? { ...e, [field]: undefined, form: undefined } : e));

  const setAmountText = (text: string) => {
    const next = nextAmount(text, entry);
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

  const amountEnter = () => {
    const err = amountError(form.amount, entry);
    if (err) setErrors((e) => ({ ...e, amount: err }));
    else phoneRef.current?.focus();
  };

  // Each question answered yes is remembered for this press of Charge only; a lookup in flight is not waited for.
  const proceed = async (accepted: CheckKind[]) => {
    if (busy.current) return;
    busy.current = true;
    try {
      const checked = checkForm(form, entry);
      const check = checked.ok && counter ? await nextCheck(checked.input, counter, lookup, accepted) : null;
      setAsking(check ? { check, accepted } : null);
      if (check) return;
      focusField(await charge(lookup.state === 'found' ? lookup.name : null, lookup.state === 'loading' ? later() : null));
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

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void proceed([]);
  };

  const focusField = (field: keyof FieldErrors | null) => {
    if (field === 'amount') amountRef.current?.focus();
    else if (field === 'phone') phoneRef.current?.focus();
    else if (field === 'network') document.getElementById('network')?.focus();
    else if (field === 'description') document.getElementById('description')?.focus();
    else if (field === 'form') chargeRef.current?.focus();
  };

  const onKeypad = (key: string) => {
    if (target === 'amount') {
      setAmountText(key === 'back' ? form.amount.slice(0, -1) : `${form.amount}${key}`);
    } else {
      const next = key === 'back' ? form.phone.slice(0, -1) : `${form.phone}${key}`.slice(0, 10);
      setPhone(next);
    }
  };

  return (
    <section className="charge-screen" aria-labelledby="charge-title">
      <h1 id="charge-title" className="screen-title">
        New sale
      </h1>
      <div className="charge-layout">
        <form className="charge-form" onSubmit={submit} noValidate inert={asking !== null}>
          <AmountField
            ref={amountRef}
            amount={form.amount}
            entry={entry}
            error={errors.amount}
            readOnly={charging}
            onText={setAmountText}
            onRefused={(message) => setErrors((e) => ({ ...e, amount: message }))}
            onEnter={amountEnter}
            onFocus={() => setTarget('amount')}
          />
          <div className="phone-row">
            <PhoneField
              ref={phoneRef}
              phone={form.phone}
              error={errors.phone}
              onPhone={setPhone}
              onFocus={() => setTarget('phone')}
              onBlur={() => {
                if (form.phone) setErrors((e) => ({ ...e, phone: phoneError(form.phone) ?? undefined }));
              }}
            />
            <NetworkSelect
              network={form.network}
              chosen={form.networkChosen}
              error={errors.network}
              onChange={(network: Network) => {
                setForm((f) => ({ ...f, network, networkChosen: true }));
                clearError('network');
              }}
            />
          </div>
          <AccountName lookup={lookup} />
          <div className="field">
            <label htmlFor="description">Description (optional)</label>
            <input
              id="description"
              maxLength={140}
              autoComplete="off"
              value={form.description}
              aria-invalid={errors.description ? true : undefined}
              onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
            />
            {errors.description ? <p className="field-error">{errors.description}</p> : null}
          </div>
          {errors.form ? (
            <p className="form-error" role="alert" data-testid="charge-error">
              {errors.form}
            </p>
          ) : null}
          <button ref={chargeRef} type="submit" className="primary big charge-button" aria-disabled={charging}>
            {charging ? 'Sending…' : 'Charge'}
          </button>
        </form>
        <Keypad onKey={onKeypad} target={target} entry={entry} />
      </div>
      {asking ? (
        <ConfirmCharge
          check={asking.check}
          timeZone={timeZone}
          onNo={() => goBack(asking.check)}
          onYes={() => void proceed([...asking.accepted, asking.check.kind])}
        />
      ) : null}
    </section>
  );
}
