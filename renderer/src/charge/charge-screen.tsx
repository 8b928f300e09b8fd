/** Front door of charge/ (what other folders may use): ChargeScreen, the sale's form (sale-form.ts) and useCharge, for sale/. */
/** Charge: amount, Enter, number, Enter. Errors sit next to what caused them; nothing typed is lost. */
import { useRef, useState, type FormEvent } from 'react';
import type { CounterSettings } from '../../../shared/ipc/contract';
import type { AmountEntry } from '../../../shared/money';
import { FormError } from '../components/form-error';
import { AccountName } from './account-name';
import { AmountField } from './amount-field';
import { ConfirmCharge } from './confirm-charge';
import { Keypad } from './keypad';
import { NetworkSelect } from './network-select';
import { PhoneField } from './phone-field';
import type { FieldErrors, SaleForm } from './sale-form';
import { useChargeFocus } from './use-charge-focus';
import { useChargeQuestions } from './use-charge-questions';
import { useSaleFields } from './use-sale-fields';
import { useAccountName, type AccountLookup } from './use-account-name';
import './charge.css';

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
  const focusField = useChargeFocus({ amountRef, phoneRef, chargeRef }, selectAmount, Boolean(errors.form));
  const fields = useSaleFields({ form, setForm, setErrors, entry, lookup, phoneRef });
  const { setAmountText, setPhone, amountEnter } = fields;
  const { asking, proceed, goBack } = useChargeQuestions({ form, entry, counter, lookup, later, charge, focusField, amountRef, phoneRef });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void proceed([]);
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
              readOnly={charging}
              onPhone={setPhone}
              onFocus={() => setTarget('phone')}
              onBlur={fields.phoneLeft}
            />
            <NetworkSelect
              network={form.network}
              chosen={form.networkChosen}
              error={errors.network}
              disabled={charging}
              onChange={fields.chooseNetwork}
            />
          </div>
          <AccountName lookup={lookup} />
          <DescriptionField
            description={form.description}
            error={errors.description}
            readOnly={charging}
            onChange={(description) => setForm((f) => ({ ...f, description }))}
          />
          <FormError message={errors.form} testId="charge-error" />
          <button ref={chargeRef} type="submit" className="primary big charge-button" aria-disabled={charging}>
            {charging ? 'Sending…' : 'Charge'}
          </button>
        </form>
        {/* While a charge is being sent the form is what was sent: nothing on it changes until the answer. */}
        <Keypad onKey={(key) => (charging ? undefined : fields.onKeypad(key, target))} target={target} entry={entry} />
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

type DescriptionProps = { description: string; error: string | undefined; readOnly: boolean; onChange: (description: string) => void };

function DescriptionField({ description, error, readOnly, onChange }: DescriptionProps) {
  return (
    <div className="field">
      <label htmlFor="description">Description (optional)</label>
      <input
        id="description"
        maxLength={140}
        autoComplete="off"
        value={description}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
