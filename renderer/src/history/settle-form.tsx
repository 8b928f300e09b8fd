/**
 * Settle by hand (managers and the owner): an overdue payment gets the outcome verified on the service's
 * dashboard, paid (its reference, the fee if shown) or not paid, always with a note. The form says what it
 * will do before it does it, and keeps everything typed when the core refuses (naming the field to fix).
 */
import { useState, type FormEvent } from 'react';
import { HAND_NOTE_MAX as NOTE_MAX, type HandOutcome } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import { call, toCallError } from '../api';
import { FieldError } from '../components/field-error';
import { FormActions } from '../components/form-actions';
import { FormError } from '../components/form-error';
import { LabelledInput } from '../components/labelled-input';
import { ghs } from '../format';

type Outcome = HandOutcome;
type Errors = { reference?: string; fee?: string; note?: string; form?: string };
type Props = { payment: PaymentView; onSettled: (payment: PaymentView) => void; onCancel: () => void };

export function SettleForm({ payment, onSettled, onCancel }: Props) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [reference, setReference] = useState('');
  const [fee, setFee] = useState('');
  const [note, setNote] = useState('');
  const { errors, setErrors, clear } = useErrors();
  const [busy, setBusy] = useState(false);
  const edit = (field: keyof Errors, set: (value: string) => void) => (value: string) => {
    set(value);
    clear(field);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!outcome) return setErrors({ form: 'Choose what the dashboard shows: paid or not paid.' });
    setBusy(true);
    try {
      const paid = outcome === 'paid';
      const answer = await call('payments:settle', {
        id: payment.id,
        outcome,
        note,
        ...(paid ? { reference } : {}),
        ...(paid && fee.trim() ? { fee } : {}),
      });
      if (answer.ok) return onSettled(answer.payment);
      setErrors(answer.field ? { [answer.field]: answer.message } : { form: answer.message });
    } catch (err) {
      setErrors({ form: toCallError(err).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="settle-form" aria-labelledby="settle-title" data-testid="settle-form" onSubmit={(e) => void submit(e)}>
      <h3 id="settle-title">Settle by hand</h3>
      <p>
        Only when you have checked this payment on the service&apos;s dashboard (reference {payment.reference ?? 'not known'}). What does it
        show?
      </p>
      <OutcomeChoice outcome={outcome} onChange={(chosen) => (setOutcome(chosen), clear('form'))} />
      {outcome === 'paid' ? (
        <PaidFields
          reference={reference}
          fee={fee}
          errors={errors}
          onReference={edit('reference', setReference)}
          onFee={edit('fee', setFee)}
        />
      ) : null}
      <div className="field">
        <label htmlFor="settle-note">Note: what you checked, and why (required, at most {NOTE_MAX} characters)</label>
        <textarea
          id="settle-note"
          value={note}
          rows={3}
          maxLength={NOTE_MAX}
          aria-describedby={errors.note ? 'settle-note-error' : undefined}
          onChange={(e) => edit('note', setNote)(e.target.value)}
        />
        <FieldError id="settle-note-error" message={errors.note} />
      </div>
      {outcome ? <SettleEffect payment={payment} outcome={outcome} fee={fee} /> : null}
      <FormError message={errors.form} testId="settle-error" />
      <FormActions submit={outcome === 'not_paid' ? 'Record as not paid' : 'Record as paid'} disabled={busy} onCancel={onCancel} />
    </form>
  );
}

/** The form's errors; editing a box clears its own (the others stay until the next try). */
function useErrors() {
  const [errors, setErrors] = useState<Errors>({});
  const clear = (field: keyof Errors) => setErrors(({ [field]: _fixed, ...rest }) => rest);
  return { errors, setErrors, clear };
}

function OutcomeChoice({ outcome, onChange }: { outcome: Outcome | null; onChange: (outcome: Outcome) => void }) {
  return (
    <fieldset className="choice">
      <legend>The dashboard shows</legend>
      <label className="check">
        <input type="radio" name="settle-outcome" checked={outcome === 'paid'} onChange={() => onChange('paid')} /> Paid: the money arrived
      </label>
      <label className="check">
        <input type="radio" name="settle-outcome" checked={outcome === 'not_paid'} onChange={() => onChange('not_paid')} /> Not paid: it did
        not go through
      </label>
    </fieldset>
  );
}

type PaidProps = { reference: string; fee: string; errors: Errors; onReference: (v: string) => void; onFee: (v: string) => void };

/** A paid one: the reference seen on the dashboard, and the fee if it shows one. */
function PaidFields({ reference, fee, errors, onReference, onFee }: PaidProps) {
  return (
    <>
      <TextField
        name="reference"
        label="Service reference, as on the dashboard"
        value={reference}
        max={128}
        error={errors.reference}
        onChange={onReference}
      />
      <TextField
        name="fee"
        label="Fee shown on the dashboard, GH₵ (optional: 0.00 is counted when left empty)"
        value={fee}
        max={16}
        decimal
        error={errors.fee}
        onChange={onFee}
      />
    </>
  );
}

type TextFieldProps = {
  name: string;
  label: string;
  value: string;
  max: number;
  decimal?: boolean;
  error?: string;
  onChange: (v: string) => void;
};

/** One labelled box of the form (#settle-<name>), its error tied to it. */
function TextField({ name, label, value, max, decimal, error, onChange }: TextFieldProps) {
  const id = `settle-${name}`;
  return (
    <LabelledInput
      id={id}
      label={label}
      value={value}
      inputMode={decimal ? 'decimal' : undefined}
      autoComplete="off"
      maxLength={max}
      describedBy={error ? `${id}-error` : undefined}
      onChange={onChange}
    >
      <FieldError id={`${id}-error`} message={error} />
    </LabelledInput>
  );
}

/** What recording it will do, said before it is done. */
function SettleEffect({ payment, outcome, fee }: { payment: PaymentView; outcome: Outcome; fee: string }) {
  const counted =
    outcome === 'paid'
      ? `as PAID: ${ghs(payment.amount)} in takings, fee ${fee.trim() ? `GH₵${fee.trim()}` : 'GH₵0.00 (none given)'}`
      : `as NOT PAID: a failure in takings, no money`;
  return (
    <p className="settle-effect" data-testid="settle-effect">
      This records the payment {counted}, marked &ldquo;settled by hand&rdquo; in History, on receipts, in the CSV and on the Z report, with
      your name and note. It cannot be undone here. If the service&apos;s own result arrives later and disagrees, the service&apos;s result
      wins and the owner is alerted.
    </p>
  );
}
