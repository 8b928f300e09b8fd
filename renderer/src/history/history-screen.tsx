/** Front door of history/ (what other folders may use): HistoryScreen and SettleAccess (who may settle by hand), for screens.tsx. */
/** History: newest first, pending ones marked, search by reference or the last digits of a number. */
import { useCallback, useRef, useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { HistoryTable } from './history-table';
import { PaymentDetail, type TillNamed } from './payment-detail';
import type { SettleAccess } from './settle-by-hand';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import { CashierPicker, type CashierChoice } from '../components/cashier-picker';
import { useCashierOptions } from './use-cashier-options';
import { useHistorySearch } from './use-history-search';
import './history.css';

/** `cashiers`: a manager or the owner, with staff, may show one person's payments (a cashier's history is their shift's). */
type Props = {
  timeZone: string;
  initial?: PaymentView | null;
  till: TillNamed;
  settle: SettleAccess;
  onUnlocked: () => void;
  cashiers?: boolean;
  /** A cashier: the core shows them their own open shift's payments only, and the screen says so. */
  ownShift?: boolean;
};

/** The count under the search: nothing until the core has answered (or after a refusal), so no "0 payments" that is not real. */
function countText(total: number | null, ownShift: boolean): string {
  if (total === null) return '';
  const count = total === 1 ? '1 payment' : `${total} payments`;
  return ownShift ? `${count} in your shift` : count;
}

export function HistoryScreen({ timeZone, initial = null, till, settle, onUnlocked, cashiers = false, ownShift = false }: Props) {
  const [selected, setSelected] = useState<PaymentView | null>(initial);
  const searchRef = useRef<HTMLInputElement>(null);
  const [cashier, setCashier] = useState<CashierChoice>(undefined);
  const people = useCashierOptions(cashiers);
  const followSelected = useCallback((p: PaymentView) => setSelected((s) => (s && s.id === p.id ? p : s)), []);
  const { query, setQuery, items, total, error, tooShort, more } = useHistorySearch(cashier, followSelected);

  useFocusOnArrival(searchRef, selected === null); // again on the way back from a detail

  if (selected) {
    return (
      <PaymentDetail
        payment={selected}
        timeZone={timeZone}
        till={till}
        settle={settle}
        onUnlocked={onUnlocked}
        onChanged={setSelected}
        onClose={() => setSelected(null)}
      />
    );
  }

  return (
    <Screen name="history" title="History">
      <div className="field search-field">
        <label htmlFor="history-search">
          Search: the customer’s number (any way it is written, or its last digits), a receipt number (R-000123) or a reference
        </label>
        <input
          ref={searchRef}
          id="history-search"
          type="search"
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {cashiers ? <CashierPicker id="history-cashier" options={people} value={cashier} onChange={setCashier} /> : null}
      <FormError message={error} />
      <p className={tooShort ? 'field-error' : 'muted'} aria-live="polite" data-testid="history-count">
        {tooShort ?? countText(total, ownShift)}
      </p>
      {ownShift ? (
        <p className="hint" data-testid="history-scope">
          Cashiers see the payments of their own open shift only. For a colleague’s payment or an earlier shift, ask a manager.
        </p>
      ) : null}
      <HistoryTable items={tooShort ? [] : items} timeZone={timeZone} onOpen={setSelected} />
      {total !== null && items.length < total ? (
        <button type="button" className="secondary" onClick={more}>
          Show more
        </button>
      ) : null}
    </Screen>
  );
}
