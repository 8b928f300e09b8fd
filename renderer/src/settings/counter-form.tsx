/** How the Charge screen reads amounts, and which amounts it asks the cashier to confirm first. */
import { useState, type FormEvent } from 'react';
import type { CounterSettings } from '../../../shared/ipc/contract';
import { checkCedisEntry, formatAmount, type AmountEntry } from '../../../shared/money';
import { call, errorMessage } from '../api';
import { UnsavedMark } from '../unsaved/unsaved-mark';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';

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
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const unsaved = useUnsaved<Values>('counter', 'Amounts at the counter', { entry, minimum, confirmAbove });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const request = {
        amountEntry: entry,
        minimum: wire(minimum, 'Smallest usual amount'),
        confirmAbove: wire(confirmAbove, 'Confirm above'),
      };
      await call('settings:saveCounter', request);
      setMessage({ ok: true, text: 'Counter settings saved.' });
      unsaved.saved({ entry, minimum, confirmAbove });
      onSaved();
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    }
  };

  return (
    <form className="till-form" onSubmit={(e) => void save(e)} aria-labelledby="counter-form-title">
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
        <div className="field">
          <label htmlFor="counter-minimum">Ask to confirm below (GH₵)</label>
          <input id="counter-minimum" inputMode="decimal" value={minimum} onChange={(e) => setMinimum(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="counter-confirm-above">Ask to confirm above (GH₵)</label>
          <input id="counter-confirm-above" inputMode="decimal" value={confirmAbove} onChange={(e) => setConfirmAbove(e.target.value)} />
        </div>
      </div>
      {message ? (
        <p className={message.ok ? 'ok-text' : 'form-error'} role="status" data-testid="counter-form-message">
          {message.text}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="secondary">
          Save counter settings
        </button>
        <UnsavedMark dirty={unsaved.dirty} testId="counter-form-unsaved" />
      </div>
    </form>
  );
}
