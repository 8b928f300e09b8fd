/** History: newest first, pending ones marked, search by reference or the last digits of a number. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { queryTooShort } from '../../../shared/history-query';
import { call, errorMessage, onEvent } from '../api';
import { HistoryTable } from './history-table';
import { PaymentDetail, type TillNamed } from './payment-detail';
import type { SettleAccess } from './settle-by-hand';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';

const PAGE_SIZE = 50;

type Props = { timeZone: string; initial?: PaymentView | null; till: TillNamed; settle: SettleAccess; onUnlocked: () => void };

export function HistoryScreen({ timeZone, initial = null, till, settle, onUnlocked }: Props) {
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<PaymentView[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<PaymentView | null>(initial);
  const searchRef = useRef<HTMLInputElement>(null);

  const load = useCallback(async (q: string, p: number) => {
    try {
      const trimmed = q.trim();
      const answer = await call('history:search', { ...(trimmed ? { query: trimmed } : {}), page: p, pageSize: PAGE_SIZE });
      setItems((prev) => (p === 0 ? answer.items : [...prev, ...answer.items]));
      setTotal(answer.total);
      setPage(answer.page);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);

  const tooShort = queryTooShort(query);
  useEffect(() => {
    if (tooShort) return undefined;
    const timer = window.setTimeout(() => void load(query, 0), 200);
    return () => window.clearTimeout(timer);
  }, [query, tooShort, load]);

  useEffect(
    () =>
      onEvent('payment:updated', (p) => {
        setItems((prev) => prev.map((x) => (x.id === p.id ? p : x)));
        setSelected((s) => (s && s.id === p.id ? p : s));
      }),
    [],
  );

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
        <label htmlFor="history-search">Search: the customer’s number (any way it is written, or its last digits) or a reference</label>
        <input
          ref={searchRef}
          id="history-search"
          type="search"
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <FormError message={error} />
      <p className={tooShort ? 'field-error' : 'muted'} aria-live="polite" data-testid="history-count">
        {tooShort ?? (total === 1 ? '1 payment' : `${total} payments`)}
      </p>
      <HistoryTable items={tooShort ? [] : items} timeZone={timeZone} onOpen={setSelected} />
      {items.length < total ? (
        <button type="button" className="secondary" onClick={() => void load(query, page + 1)}>
          Show more
        </button>
      ) : null}
    </Screen>
  );
}
