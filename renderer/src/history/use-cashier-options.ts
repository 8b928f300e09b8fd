/** The people History can be filtered by: this till's staff (session:people), and nobody signed in. */
import { useEffect, useState } from 'react';
import { call } from '../api';
import { NOBODY_SIGNED_IN, type CashierOption } from '../components/cashier-picker';

export function useCashierOptions(wanted: boolean): CashierOption[] {
  const [options, setOptions] = useState<CashierOption[]>([]);
  useEffect(() => {
    if (!wanted) return;
    call('session:people', {}).then(
      ({ people }) => setOptions([...people.map((p) => ({ id: p.id, name: p.name })), { id: null, name: NOBODY_SIGNED_IN }]),
      () => setOptions([]),
    );
  }, [wanted]);
  return options;
}
