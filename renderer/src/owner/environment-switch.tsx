/** TEST/LIVE switch. LIVE asks for confirmation (real money moves) and the PIN; the core refuses incomplete settings. */
import { useState, type FormEvent } from 'react';

import { call, errorMessage } from '../api';
import { useAnnounce } from '../components/announcer';
import { FormActions } from '../components/form-actions';
import type { Environment } from '../../../shared/domain';

type Props = { active: Environment; liveReady: boolean; onChanged: () => void };

export function EnvironmentSwitch({ active, liveReady, onChanged }: Props) {
  const [target, setTarget] = useState<Environment | null>(null);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const announce = useAnnounce();
  const other: Environment = active === 'live' ? 'test' : 'live';

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    if (!target) return;
    try {
      const answer = await call('settings:setEnvironment', { environment: target, pin });
      if (!answer.ok) {
        setError(answer.message ?? 'The till could not switch.');
        return;
      }
      announce(`The till is now in ${target === 'live' ? 'LIVE' : 'TEST'} mode.`, true);
      setTarget(null);
      setPin('');
      setError(null);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section className="env-switch" aria-labelledby="env-switch-title">
      <h2 id="env-switch-title">Mode: {active === 'live' ? 'LIVE' : 'TEST'}</h2>
      {!liveReady && active === 'test' ? (
        <p className="hint">LIVE settings are not complete yet; fill in the LIVE environment below first.</p>
      ) : null}
      {target === null ? (
        <button
          type="button"
          className={other === 'live' ? 'danger' : 'secondary'}
          onClick={() => {
            setTarget(other);
            setError(null);
          }}
        >
          Switch to {other === 'live' ? 'LIVE' : 'TEST'}…
        </button>
      ) : (
        <SwitchConfirm
          target={target}
          pin={pin}
          onPin={setPin}
          error={error}
          onSubmit={(e) => void confirm(e)}
          onCancel={() => {
            setTarget(null);
            setPin('');
            setError(null);
          }}
        />
      )}
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
