/**
 * Payments the cashier stopped waiting for, and those the till had open when it last stopped: when one
 * reaches its result, raise a notice and announce it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isFinal, isUnsentEnd, type Environment } from '../../../shared/domain';
import type { PaymentView } from '../../../shared/ipc/contract';
import { call, onEvent } from '../api';
import { ghs, phone } from '../format';
import { announceLateResult, lateNoticeTitle, noticesFor, type LateNotice } from './late-results';

/**
 * `who`: whoever may see payments now (a signed-in person's id, or the caller of a till without staff); null
 * at the lock, where the core refuses payments:pending. The open payments are asked for again at each
 * sign-in, and only then: a cashier sees their own shift's.
 */
export function useLateResults(
  announce: (message: string, urgent?: boolean) => void,
  environment: Environment | undefined,
  who: string | null,
) {
  const [notices, setNotices] = useState<LateNotice[]>([]);
  const watching = useRef(new Set<string>());
  /** Payments open when the till last stopped: how their sending ended is news too, as nobody saw it. */
  const leftOpen = useRef(new Set<string>());
  /** The result each notice was raised for: a result that changes later (a settle by hand the service overrode) is raised again. */
  const notified = useRef(new Map<string, PaymentView['state']>());
  const currentEnvironment = useRef(environment);
  useEffect(() => {
    currentEnvironment.current = environment;
  }, [environment]);

  const raise = useCallback(
    (p: PaymentView) => {
      // An unconfirmed one may still get its result: still watched.
      if (isFinal(p.state)) watching.current.delete(p.id);
      if (notified.current.get(p.id) === p.state) return;
      notified.current.set(p.id, p.state);
      const notice: LateNotice = leftOpen.current.has(p.id) ? { ...p, leftOpen: true } : p;
      setNotices((n) => [notice, ...n.filter((x) => x.id !== p.id)]);
      if (!announceLateResult(p, currentEnvironment.current)) return;
      const what = p.state === 'success' ? ' is PAID' : p.state === 'failed' ? ' was NOT paid' : `: ${lateNoticeTitle(p)}`;
      announce(`Late result: ${ghs(p.amount)} from ${phone(p.msisdn)}${what}.`, true);
    },
    [announce],
  );

  const watch = useCallback((p: PaymentView) => {
    if (isFinal(p.state)) return;
    watching.current.add(p.id);
  }, []);

  // Payments still open from before this window opened (a restart mid-sale) resolve with a notice too, and
  // what happened to them before anyone signed in (results that landed while the till was down, starting
  // or locked) is raised at once, the newest on top.
  useEffect(() => {
    if (who === null) return;
    call('payments:pending', {})
      .then(({ items, leftOpen: changed }) => {
        items.forEach((p) => watching.current.add(p.id));
        for (const p of [...changed].reverse()) {
          leftOpen.current.add(p.id);
          if (!isFinal(p.state)) watching.current.add(p.id);
          if (isFinal(p.state) || isUnsentEnd(p.state)) raise(p);
        }
      })
      .catch(() => undefined);
  }, [who, raise]);

  useEffect(
    () =>
      onEvent('payment:updated', (p) => {
        if (isFinal(p.state) ? watching.current.has(p.id) || p.stoppedWaiting : isUnsentEnd(p.state) && leftOpen.current.has(p.id))
          raise(p);
      }),
    [raise],
  );

  const dismiss = useCallback((id: string) => setNotices((n) => n.filter((x) => x.id !== id)), []);
  return { notices: noticesFor(notices, environment), watch, dismiss };
}
