/** One environment's details (TEST or LIVE): secrets only ever shown masked, typed fresh to change. */
import { useState, type FormEvent } from 'react';
import type { EnvironmentSettingsView, TillEnvironment } from '../../../shared/ipc/contract';
import { call, errorMessage } from '../api';

type Props = { environment: TillEnvironment; view: EnvironmentSettingsView; onSaved: () => void };
type TestResult = { result: string; message: string } | null;

export function EnvironmentForm({ environment, view, onSaved }: Props) {
  const [values, setValues] = useState({
    baseUrl: view.baseUrl,
    merchantId: view.merchantId,
    publicKeyId: view.publicKeyId,
    secretKey: '',
    relayUrl: view.relayUrl,
    relayToken: '',
  });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [test, setTest] = useState<TestResult>(null);
  const id = (field: string) => `${environment}-${field}`;
  const name = environment === 'live' ? 'LIVE' : 'TEST';

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const { secretKey, relayToken, ...rest } = values;
      await call('settings:save', {
        environment,
        values: { ...rest, ...(secretKey ? { secretKey } : {}), ...(relayToken ? { relayToken } : {}) },
      });
      setValues((v) => ({ ...v, secretKey: '', relayToken: '' }));
      setMessage({ ok: true, text: `${name} settings saved.` });
      onSaved();
    } catch (err) {
      // What was typed stays in the boxes so it can be corrected.
      setMessage({ ok: false, text: errorMessage(err) });
    }
  };

  const testConnection = async () => {
    setTest({ result: 'pending', message: 'Testing…' });
    try {
      setTest(await call('settings:testConnection', { environment }));
    } catch (err) {
      setTest({ result: 'error', message: errorMessage(err) });
    }
  };

  const text = (field: keyof typeof values, label: string, extra: Record<string, string> = {}) => (
    <div className="field">
      <label htmlFor={id(field)}>{label}</label>
      <input id={id(field)} autoComplete="off" spellCheck={false} value={values[field]} onChange={set(field)} {...extra} />
    </div>
  );

  return (
    <form className="env-form" onSubmit={(e) => void save(e)} aria-labelledby={id('title')} data-testid={`env-form-${environment}`}>
      <h2 id={id('title')}>
        {name} environment {view.embedded ? '(built-in sandbox)' : ''} {view.complete ? '' : '— incomplete'}
      </h2>
      <div className="env-grid">
        {text('baseUrl', 'Service address (base URL)')}
        {text('merchantId', 'Merchant ID (MCH_…)')}
        {text('publicKeyId', `Public key id (pk_${environment}_…)`)}
        <div className="field">
          <label htmlFor={id('secretKey')}>Secret key</label>
          <input
            id={id('secretKey')}
            type="password"
            autoComplete="off"
            placeholder={view.secretKeyMasked ? 'Leave empty to keep the saved key' : `sk_${environment}_…`}
            aria-describedby={id('secret-state')}
            value={values.secretKey}
            onChange={set('secretKey')}
          />
          <p className="hint" id={id('secret-state')} data-testid={id('secret-masked')}>
            Saved: {view.secretKeyMasked ?? 'none'}
          </p>
        </div>
        {text('relayUrl', 'Relay address (results come from here)')}
        <div className="field">
          <label htmlFor={id('relayToken')}>Relay token</label>
          <input
            id={id('relayToken')}
            type="password"
            autoComplete="off"
            placeholder={view.relayTokenSet ? 'Leave empty to keep the saved token' : 'Relay token'}
            aria-describedby={id('token-state')}
            value={values.relayToken}
            onChange={set('relayToken')}
          />
          <p className="hint" id={id('token-state')}>
            Saved: {view.relayTokenSet ? 'yes (hidden)' : 'none'}
          </p>
        </div>
      </div>
      <p className="hint">Callback address sent to the service: {view.callbackUrl || '—'}</p>
      {message ? (
        <p className={message.ok ? 'ok-text' : 'form-error'} role={message.ok ? 'status' : 'alert'} data-testid={id('save-message')}>
          {message.text}
        </p>
      ) : null}
      {test ? (
        <p className={test.result === 'ok' ? 'ok-text' : 'form-error'} role="status" data-testid={id('test-result')}>
          {test.message}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary">
          Save {name} settings
        </button>
        <button type="button" className="secondary" onClick={() => void testConnection()}>
          Test {name} connection
        </button>
      </div>
    </form>
  );
}
