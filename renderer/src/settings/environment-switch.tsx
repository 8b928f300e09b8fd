/**
 * TEST/LIVE switch. "Switch to LIVE…" first asks the core what LIVE still lacks (its own check, the one that
 * refuses the switch): while anything is missing it lists it and offers no PIN. Only then does it say that
 * real money moves and ask for the owner PIN.
 */
import { useEffect, useState, type FormEvent } from 'react';

import { call, errorMessage } from '../api';
import { useAnnounce } from '../components/announcer';
import { FormActions } from '../components/form-actions';
import { FormError } from '../components/form-error';
import type { Environment } from '../../../shared/domain';
import type { EnvironmentSetting } from '../../../shared/ipc/contract';
import { BROWSER_MODE_NO_LIVE } from '../../../shared/shell';
import { LiveMissing } from './live-missing';
import '../components/components.css';

/** `settingsRead`: the settings as last read; a new read (after a save) checks again what LIVE lacks. */
type Props = { active: Environment; liveReady: boolean; browserMode?: boolean; settingsRead: unknown; onChanged: () => void };
type Step = { kind: 'idle' } | { kind: 'missing'; missing: EnvironmentSetting[] } | { kind: 'confirm'; target: Environment };

export function EnvironmentSwitch({ active, liveReady, browserMode = false, settingsRead, onChanged }: Props) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const announce = useAnnounce();
  const other: Environment = active === 'live' ? 'test' : 'live';

  const close = () => {
    setStep({ kind: 'idle' });
    setPin('');
    setError(null);
  };

  /** To LIVE: what is missing first, the PIN only when nothing is. To TEST: the PIN at once. */
  const begin = async (target: Environment) => {
    setError(null);
    if (target === 'test') return setStep({ kind: 'confirm', target });
    try {
      const { missing } = await call('settings:liveMissing', {});
      setStep(missing.length > 0 ? { kind: 'missing', missing } : { kind: 'confirm', target });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  // The list shown follows the LIVE settings as they are saved below it.
  const listed = step.kind === 'missing';
  useEffect(() => {
    if (!listed) return;
    call('settings:liveMissing', {}).then(
      ({ missing }) => setStep(missing.length > 0 ? { kind: 'missing', missing } : { kind: 'idle' }),
      () => undefined,
    );
  }, [listed, settingsRead]);

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (step.kind !== 'confirm') return;
    const { target } = step;
    try {
      const answer = await call('settings:setEnvironment', { environment: target, pin });
      if (!answer.ok) {
        setError(answer.message ?? 'The till could not switch.');
        return;
      }
      announce(`The till is now in ${target === 'live' ? 'LIVE' : 'TEST'} mode.`, true);
      close();
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className="env-switch" aria-labelledby="env-switch-title">
      <h2 id="env-switch-title">Mode: {active === 'live' ? 'LIVE' : 'TEST'}</h2>
      {browserMode && active === 'test' ? (
        <p className="hint" data-testid="browser-mode-no-live">
          {BROWSER_MODE_NO_LIVE}
        </p>
      ) : null}
      {!browserMode && !liveReady && active === 'test' ? (
        <p className="hint">LIVE settings are not complete yet; fill in the LIVE environment below first.</p>
      ) : null}
      {step.kind === 'idle' && !(browserMode && other === 'live') ? (
        <>
          <button type="button" className={other === 'live' ? 'danger' : 'secondary'} onClick={() => void begin(other)}>
            Switch to {other === 'live' ? 'LIVE' : 'TEST'}…
          </button>
          <FormError message={error} />
        </>
      ) : null}
      {step.kind === 'missing' ? <LiveMissing missing={step.missing} onClose={close} /> : null}
      {step.kind === 'confirm' ? (
        <SwitchConfirm target={step.target} pin={pin} onPin={setPin} error={error} onSubmit={(e) => void confirm(e)} onCancel={close} />
      ) : null}
    </section>
  );
}

type ConfirmProps = {
  target: Environment;
  pin: string;
  onPin: (pin: string) => void;
  error: string | null;
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
};

/** What switching to `target` means, and the owner PIN that confirms it. */
function SwitchConfirm({ target, pin, onPin, error, onSubmit, onCancel }: ConfirmProps) {
  return (
    <form className="confirm-box" onSubmit={onSubmit} role="group" aria-labelledby="env-confirm-text">
      <p id="env-confirm-text" className={target === 'live' ? 'warning-text' : ''}>
        {target === 'live'
          ? 'In LIVE mode real money moves from customers’ wallets to your account. Only switch when your LIVE keys are set and you are ready to take real payments.'
          : 'In TEST mode payments go to the sandbox: no real money moves and nothing may be handed over for them.'}
      </p>
      <div className="field">
        <label htmlFor="switch-pin">Owner PIN to confirm</label>
        <input
          id="switch-pin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          autoFocus
          value={pin}
          aria-describedby={error ? 'switch-error' : undefined}
          onChange={(e) => onPin(e.target.value)}
        />
      </div>
      {error ? (
        <p className="form-error" id="switch-error" role="alert" data-testid="switch-error">
          {error}
        </p>
      ) : null}
      <FormActions submit={`Yes, switch to ${target === 'live' ? 'LIVE' : 'TEST'}`} danger={target === 'live'} onCancel={onCancel} />
    </form>
  );
}
