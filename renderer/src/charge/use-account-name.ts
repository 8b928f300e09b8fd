/**
 * Look up the wallet holder's name as soon as the number is complete, so the cashier can read it back
 * to the customer. `settled()` lets Enter wait (briefly) for a lookup still on its way, so the name is
 * on the payment and on the waiting screen even when the cashier types fast.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { tryNormaliseMsisdn } from '../../../shared/phone';
import { call } from '../api';

export type AccountLookup =
  { state: 'idle' } | { state: 'loading' } | { state: 'found'; name: string } | { state: 'none'; message: string };

const WAIT_AT_MOST_MS = 2500;

export function useAccountName(phone: string, network: string) {
  const [lookup, setLookup] = useState<AccountLookup>({ state: 'idle' });
  const pending = useRef<Promise<string | null> | null>(null);
  const number = tryNormaliseMsisdn(phone);
  const msisdn = number.ok ? number.msisdn : null;

  useEffect(() => {
    pending.current = null;
    if (!msisdn || !network) {
      setLookup({ state: 'idle' });
      return undefined;
    }
    let cancelled = false;
    setLookup({ state: 'loading' });
    const request = call('payments:resolveAccount', { msisdn, network }).then(
      (answer) => {
        if (!cancelled) {
          if (answer.name) setLookup({ state: 'found', name: answer.name });
          else setLookup({ state: 'none', message: answer.message ?? 'No name came back for this number; check it with the customer.' });
        }
        return answer.name;
      },
      () => {
        if (!cancelled) setLookup({ state: 'none', message: 'Could not look up the name; check the number with the customer.' });
        return null;
      },
    );
    pending.current = request;
    return () => {
      cancelled = true;
    };
  }, [msisdn, network]);

  const settled = useCallback(async (): Promise<string | null> => {
    const request = pending.current;
    if (!request) return null;
    const timeout = new Promise<null>((ok) => window.setTimeout(() => ok(null), WAIT_AT_MOST_MS));
    return Promise.race([request, timeout]);
  }, []);

  return { lookup, settled };
}
