/** How the Charge screen reads amounts, and which amounts it asks the cashier to confirm first. */
import { useState, type FormEvent } from 'react';
import type { CounterSettings } from '../../../shared/ipc/contract';
import { checkCedisEntry, formatAmount, type AmountEntry } from '../../../shared/money';
import { call } from '../api';
import { LabelledInput } from '../components/labelled-input';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';
import { SectionSaveFooter, useSectionSave } from './section-save';

type Props = { counter: CounterSettings; onSaved: () => void };
type Values = { entry: AmountEntry; minimum: string; confirmAbove: string };

/** "1,000" or "0.5" typed by the owner, as a wire amount ("1000.00"), or why not. */
function wire(text: string, label: string): string {
  const checked = checkCedisEntry(text.replace(/[\s,]/g, '').replace(/^GH₵/, ''));
  if (!checked.ok) throw new Error(`${label}: ${checked.error}`);
  if (checked.pesewas === null) throw new Error(`${label}: type an amount in cedis, such as 1.00.`);
  return formatAmount(checked.pesewas);
}

export function CounterForm({ counter, onSaved }: Props) {
  const kept = useKeptValues<Values>('counter');
  const [entry, setEntry] = useState<AmountEntry>(kept?.entry ?? counter.amountEntry);
  const [minimum, setMinimum] = useState(kept?.minimum ?? counter.minimum);
  const [confirmAbove, setConfirmAbove] = useState(kept?.confirmAbove ?? counter.confirmAbove);
  const unsaved = useUnsaved<Values>('counter', 'Amounts at the counter', { entry, minimum, confirmAbove });
  const { message, save } = useSectionSave(unsaved, onSaved);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const request = () => ({
      amountEntry: entry,
      minimum: wire(minimum, 'Smallest usual amount'),
      confirmAbove: wire(confirmAbove, 'Confirm above'),
    });
    void save({ entry, minimum, confirmAbove }, () => call('settings:saveCounter', request()), 'Counter settings saved.');
  };

  return (
    <form className="till-form" onSubmit={submit} aria-labelledby="counter-form-title">
      <h2 id="counter-form-title">Amounts at the counter</h2>
      <fieldset className="choice">
        <legend>How cashiers type an amount</legend>
        <label htmlFor="entry-cedis">
          <input id="entry-cedis" type="radio" name="amount-entry" checked={entry === 'cedis'} onChange={() => setEntry('cedis')} />
          Cedis first, with a point: 5 is GH₵5.00, 12.5 is GH₵12.50
        </label>
        <label htmlFor="entry-pesewas">
          <input id="entry-pesewas" type="radio" name="amount-entry" checked={entry === 'pesewas'} onChange={() => setEntry('pesewas')} />
          Pesewas first: 1 2 5 0 is GH₵12.50
        </label>
      </fieldset>
      <div className="env-grid">
        <LabelledInput id="counter-minimum" label="Ask to confirm below (GH₵)" inputMode="decimal" value={minimum} onChange={setMinimum} />
        <LabelledInput
          id="counter-confirm-above"
          label="Ask to confirm above (GH₵)"
          inputMode="decimal"
          value={confirmAbove}
          onChange={setConfirmAbove}
        />
      </div>
      <SectionSaveFooter
        message={message}
        messageTestId="counter-form-message"
        submit="Save counter settings"
        dirty={unsaved.dirty}
        unsavedTestId="counter-form-unsaved"
      />
    </form>
  );
}
