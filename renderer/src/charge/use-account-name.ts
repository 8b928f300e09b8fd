/** Look up the wallet holder's name once the number is complete, so the cashier can confirm it. */
import { useEffect, useState } from 'react';
import { tryNormaliseMsisdn } from '../../../shared/phone';
import { call } from '../api';

export type AccountLookup =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'found'; name: string }
  | { state: 'none'; message: string };

export function useAccountName(phone: string, network: string): AccountLookup {
  const [lookup, setLookup] = useState<AccountLookup>({ state: 'idle' });
  const number = tryNormaliseMsisdn(phone);
  const msisdn = number.ok ? number.msisdn : null;

  useEffect(() => {
    if (!msisdn || !network) {
      setLookup({ state: 'idle' });
      return undefined;
    }
    let cancelled = false;
    setLookup({ state: 'loading' });
    const timer = window.setTimeout(() => {
      call('payments:resolveAccount', { msisdn, network })
        .then((answer) => {
          if (cancelled) return;
          if (answer.name) setLookup({ state: 'found', name: answer.name });
          else setLookup({ state: 'none', message: answer.message ?? 'No name came back for this number.' });
        })
        .catch(() => {
          if (!cancelled) setLookup({ state: 'none', message: 'Could not look up the name; check the number with the customer.' });
        });
    }, 200);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [msisdn, network]);

  return lookup;
}
