/** Payments the cashier stopped waiting for: when one reaches its result, raise a notice and announce it. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isFinal, type Environment } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import { call, onEvent } from '../api';
import { ghs, phone } from '../format';
import { announceLateResult, noticesFor } from './late-results';

export function useLateResults(announce: (message: string, urgent?: boolean) => void, environment: Environment | undefined) {
  const [notices, setNotices] = useState<PaymentView[]>([]);
  const watching = useRef(new Set<string>());
  /** The result each notice was raised for: a result that changes later (a settle by hand the service overrode) is raised again. */
  const notified = useRef(new Map<string, PaymentView['state']>());
  const currentEnvironment = useRef(environment);
  useEffect(() => {
    currentEnvironment.current = environment;
  }, [environment]);

  const raise = useCallback(
    (p: PaymentView) => {
      watching.current.delete(p.id);
      if (notified.current.get(p.id) === p.state) return;
      notified.current.set(p.id, p.state);
      setNotices((n) => [p, ...n.filter((x) => x.id !== p.id)]);
      if (!announceLateResult(p, currentEnvironment.current)) return;
      announce(`Late result: ${ghs(p.amount)} from ${phone(p.msisdn)} ${p.state === 'success' ? 'is PAID' : 'was NOT paid'}.`, true);
    },
    [announce],
  );

  const watch = useCallback((p: PaymentView) => {
    if (isFinal(p.state)) return;
    watching.current.add(p.id);
  }, []);

  // Payments still open from before this window opened (a restart mid-sale) resolve with a notice too.
  useEffect(() => {
    call('payments:pending', {})
      .then(({ items }) => items.forEach((p) => watching.current.add(p.id)))
      .catch(() => undefined);
  }, []);

  useEffect(
    () =>
      onEvent('payment:updated', (p) => {
        if (isFinal(p.state) && (watching.current.has(p.id) || p.stoppedWaiting)) raise(p);
      }),
    [raise],
  );

  const dismiss = useCallback((id: string) => setNotices((n) => n.filter((x) => x.id !== id)), []);
  return { notices: noticesFor(notices, environment), watch, dismiss };
}
