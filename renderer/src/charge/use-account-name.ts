/**
 * Look up the wallet holder's name as soon as the number is complete, so the cashier can read it back
 * to the customer. A lookup still on its way never holds a sale back: `later()` hands its answer to
 * the waiting screen instead.
 */
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { tryNormaliseMsisdn } from '../../../shared/phone';
import { call } from '../api';

export type AccountLookup =
  { state: 'idle' } | { state: 'loading' } | { state: 'found'; name: string } | { state: 'none'; message: string; noAccount: boolean };

export function useAccountName(phone: string, network: string) {
  const [lookup, setLookup] = useState<AccountLookup>({ state: 'idle' });
  const pending = useRef<Promise<AccountLookup> | null>(null);
  const number = tryNormaliseMsisdn(phone);
  const msisdn = number.ok ? number.msisdn : null;

  // A layout effect, so the lookup has started before the browser handles the next key: an Enter
  // pressed right after the last digit still hands its answer to the waiting screen.
  useLayoutEffect(() => {
    pending.current = null;
    if (!msisdn || !network) {
      setLookup({ state: 'idle' });
      return undefined;
    }
    let cancelled = false;
    setLookup({ state: 'loading' });
    const request = call('payments:resolveAccount', { msisdn, network }).then(
      (answer): AccountLookup =>
        answer.name
          ? { state: 'found', name: answer.name }
          : {
              state: 'none',
              message: answer.message ?? 'No name came back for this number; check it with the customer.',
              noAccount: answer.noAccount === true,
            },
      (): AccountLookup => ({
        state: 'none',
        message: 'Could not look up the name; check the number with the customer.',
        noAccount: false,
      }),
    );
    void request.then((result) => {
      if (!cancelled) setLookup(result);
    });
    pending.current = request;
    return () => {
      cancelled = true;
    };
  }, [msisdn, network]);

  /** The answer of the lookup in flight (null if none): for the waiting screen, never awaited by Charge. */
  const later = useCallback((): Promise<AccountLookup> | null => pending.current, []);

  return { lookup, later };
}
