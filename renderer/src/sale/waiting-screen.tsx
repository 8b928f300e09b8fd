/** Waiting for the customer: what to say, what is being charged, how long, and a way out that loses nothing. */
import { useCallback, useRef } from 'react';
import type { PaymentView, RelayState } from '../../../shared/ipc/contract';
import { elapsed, ghs, networkLabel, phone } from '../format';
import { useNow } from '../hooks/use-now';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { useTopKeys } from '../hooks/use-top-keys';

const STATE_TEXT: Record<string, string> = {
  created: 'Preparing the payment…',
  submitting: 'Sending the payment to the service…',
  awaiting_customer: 'The prompt is on the customer’s phone.',
  uncertain: 'The connection to the service broke; checking again with the same payment (no double charge)…',
};

const RELAY_TEXT: Record<RelayState, string> = {
  connected: 'Results connection: connected',
  reconnecting: 'Results connection: reconnecting… the result will still arrive',
  offline: 'Results connection: offline — the result will arrive once it is back',
};

type Props = { payment: PaymentView; walletName: string | null; relayState: RelayState; onStop: () => void };

export function WaitingScreen({ payment, walletName, relayState, onStop }: Props) {
  const now = useNow(1000);
  // Focus goes to the title, not to "Stop waiting": the Enter a busy cashier presses twice (amount, Enter,
  // number, Enter, Enter) must not stop waiting the moment this screen appears. Tab reaches the button.
  const titleRef = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(titleRef);
  const started = Date.parse(payment.createdAt);

  // Escape is the keyboard's way out, the same as the button (the payment stays open either way); only
  // while this screen is on top (an Escape at the lock is the lock's).
  const rootRef = useRef<HTMLElement>(null);
  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      onStop();
    },
    [onStop],
  );
  useTopKeys(rootRef, onKey);

  return (
    <section ref={rootRef} className="waiting-screen" aria-labelledby="waiting-title">
      <h1 id="waiting-title" className="waiting-title" ref={titleRef} tabIndex={-1}>
        Ask the customer to approve on their phone
      </h1>
      <p className="waiting-amount" data-testid="waiting-amount">
        {ghs(payment.amount)}
      </p>
      <p className="waiting-number">
        {phone(payment.msisdn)} · {networkLabel(payment.network)}
      </p>
      <p className="waiting-name" data-testid="waiting-name">
        {walletName ? (
          <>
            Wallet name: <strong>{walletName}</strong>
          </>
        ) : null}
      </p>
      <p className="waiting-state" data-testid="waiting-state">
        {STATE_TEXT[payment.state] ?? 'Waiting…'}
      </p>
      {payment.errorMessage ? <p className="form-error">{payment.errorMessage}</p> : null}
      <p className="waiting-elapsed">
        Waiting for <span data-testid="waiting-elapsed">{Number.isNaN(started) ? '—' : elapsed(now - started)}</span>
      </p>
      <p className={`waiting-relay relay-${relayState}`} data-testid="waiting-relay">
        {RELAY_TEXT[relayState]}
      </p>
      <div className="actions">
        <button type="button" className="secondary" onClick={onStop} aria-keyshortcuts="Escape">
          Stop waiting (the payment stays open)
        </button>
      </div>
      <p className="hint">Escape also stops waiting. The result still arrives and you will see a notice.</p>
    </section>
  );
}
