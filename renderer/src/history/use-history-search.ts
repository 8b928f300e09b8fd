/** History's search: the query typed, the pages loaded for it (and for the chosen cashier), kept up to date by payment events. */
import { useCallback, useEffect, useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { queryTooShort } from '../../../shared/history-query';
import { call, errorMessage, onEvent } from '../api';
import type { CashierChoice } from '../components/cashier-picker';

const PAGE_SIZE = 50;

export function useHistorySearch(cashier: CashierChoice, onUpdated: (p: PaymentView) => void) {
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<PaymentView[]>([]);
  // null until the core has answered: a count is shown only for a real answer, never for a refusal.
  const [total, setTotal] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (q: string, p: number) => {
      try {
        const trimmed = q.trim();
        const answer = await call('history:search', {
          ...(trimmed ? { query: trimmed } : {}),
          ...(cashier === undefined ? {} : { cashierId: cashier }),
          page: p,
          pageSize: PAGE_SIZE,
        });
        setItems((prev) => (p === 0 ? answer.items : [...prev, ...answer.items]));
        setTotal(answer.total);
        setPage(answer.page);
        setError(null);
      } catch (e) {
        setError(errorMessage(e));
        setItems([]);
        setTotal(null);
      }
    },
    [cashier],
  );

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
        onUpdated(p);
      }),
    [onUpdated],
  );

  const more = () => void load(query, page + 1);
  return { query, setQuery, items, total, error, tooShort, more };
}
