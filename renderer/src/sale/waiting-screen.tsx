/** Waiting for the customer: what to say, what is being charged, how long, and a way out that loses nothing. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isResendable } from '../../../shared/domain';
import type { PaymentView, RelayState } from '../../../shared/ipc/contract';
import { elapsed, ghs, networkLabel, phone } from '../format';
import { useNow } from '../hooks/use-now';
import { useFocusOnArrival } from '../hooks/use-focus-on-arrival';
import { useTopKeys } from '../hooks/use-top-keys';

const clock = (iso: string | undefined) =>
  iso ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : 'its deadline';

/**
 * Where the charge is, and only what the till knows: not yet at the service, at the service (it answered,
 * so the prompt is on the phone), or unknown (an attempt may have reached it and no answer came).
 */
function whereItIs(p: PaymentView): { title: string; text: string } {
  const until = clock(p.sendUntil);
  if (p.state === 'not_sent')
    return { title: 'Not sent: no prompt went out', text: 'The payment never reached the payment service. The customer was not charged.' };
  if (p.state === 'unconfirmed')
    return {
      title: 'May have reached the payment service',
      text: 'The till got no answer and will not send it again. If the customer approves a prompt, the result will show here.',
    };
  if (p.reach === 'yes' || p.state === 'awaiting_customer')
    return {
      title: 'Ask the customer to approve on their phone',
      text: 'The payment service has it: the prompt is on the customer’s phone.',
    };
  if (p.reach === 'maybe')
    return {
      title: 'The till does not know if the payment service got it',
      text: `No answer from the payment service. If it has the payment, the prompt is on the customer’s phone. Trying again with the same payment until ${until}.`,
    };
  return {
    title: 'Sending to the payment service…',
    text: `Not at the payment service yet: no prompt has gone out. Trying until ${until}.`,
  };
}

const RELAY_TEXT: Record<RelayState, string> = {
  connected: 'Results connection: connected',
  reconnecting: 'Results connection: reconnecting… the result will still arrive',
  offline: 'Results connection: offline — the result will arrive once it is back',
};

type Props = { payment: PaymentView; walletName: string | null; relayState: RelayState; onStop: (send?: 'keep' | 'stop') => void };

export function WaitingScreen({ payment, walletName, relayState, onStop: stop }: Props) {
  // Before the service acknowledged it, stopping waiting asks whether the till should keep sending it.
  const [asking, setAsking] = useState(false);
  const unacknowledged = isResendable(payment.state);
  const onStop = useCallback(() => (unacknowledged ? setAsking(true) : stop()), [unacknowledged, stop]);
  // The service answered while the question was up: there is nothing left to send, so the cashier's
  // "stop waiting" goes ahead rather than vanishing with the question.
  useEffect(() => {
    if (asking && !unacknowledged) stop();
  }, [asking, unacknowledged, stop]);
  const where = whereItIs(payment);
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
        {where.title}
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
        {where.text}
      </p>
      <p className="waiting-elapsed">
        Waiting for <span data-testid="waiting-elapsed">{Number.isNaN(started) ? '—' : elapsed(now - started)}</span>
      </p>
      <p className={`waiting-relay relay-${relayState}`} data-testid="waiting-relay">
        {RELAY_TEXT[relayState]}
      </p>
      {asking && unacknowledged ? (
        <div className="actions" role="group" aria-label="Keep sending it?" data-testid="stop-question">
          <p>The payment service has not answered yet. Keep sending it?</p>
          {/* Focused, so an Enter by reflex keeps trying: the safer of the two while the customer may still be here. */}
          <button type="button" onClick={() => stop('keep')} autoFocus>
            Keep trying until {clock(payment.sendUntil)}
          </button>
          <button type="button" className="secondary" onClick={() => stop('stop')}>
            Stop: don’t send it
          </button>
        </div>
      ) : (
        <div className="actions">
          <button type="button" className="secondary" onClick={onStop} aria-keyshortcuts="Escape">
            Stop waiting
          </button>
        </div>
      )}
      <p className="hint">Escape also stops waiting. The result still arrives and you will see a notice.</p>
    </section>
  );
}
