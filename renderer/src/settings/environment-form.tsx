/** One environment's details (TEST or LIVE): secrets only ever shown masked, typed fresh to change. */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { EnvironmentSettingsView } from '../../../shared/ipc/contract';
import { call, toCallError } from '../api';
import { SaveMessage } from '../components/save-message';
import { EnvironmentField } from './environment-field';
import { UnsavedMark } from '../unsaved/unsaved-mark';
import { useKeptValues, useUnsaved } from '../unsaved/use-unsaved';
import type { Environment } from '../../../shared/domain';

type Props = { environment: Environment; view: EnvironmentSettingsView; onSaved: () => Promise<void> | void };
type Values = { baseUrl: string; merchantId: string; publicKeyId: string; secretKey: string; relayUrl: string; relayToken: string };
type Message = { ok: boolean; text: string; field?: string } | null;
type TestResult = { result: string; message: string } | null;

/** A lock never keeps these (use-unsaved.ts): typed again after it, as the notice over Settings says. */
const SECRETS = { fields: { secretKey: 'secret key', relayToken: 'relay token' } };

/** The boxes as saved: secrets are never shown, so theirs start empty. */
const savedValues = (view: EnvironmentSettingsView): Values => ({
  baseUrl: view.baseUrl,
  merchantId: view.merchantId,
  publicKeyId: view.publicKeyId,
  secretKey: '',
  relayUrl: view.relayUrl,
  relayToken: '',
});

export function EnvironmentForm({ environment, view, onSaved }: Props) {
  const kept = useKeptValues<Values>(`env-${environment}`);
  const [values, setValues] = useState<Values>(() => kept ?? savedValues(view));
  const [message, setMessage] = useState<Message>(null);
  const [test, testConnection] = useConnectionTest(environment);
  const id = (field: string) => `${environment}-${field}`;
  const name = environment === 'live' ? 'LIVE' : 'TEST';
  const unsaved = useUnsaved(`env-${environment}`, `${name} environment`, values, SECRETS);
  const blamed = message && !message.ok && message.field && message.field in values ? message.field : null;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const { secretKey, relayToken, ...rest } = values;
      await call('settings:save', {
        environment,
        values: { ...rest, ...(secretKey ? { secretKey } : {}), ...(relayToken ? { relayToken } : {}) },
      });
      setValues((v) => ({ ...v, secretKey: '', relayToken: '' }));
      unsaved.saved({ ...values, secretKey: '', relayToken: '' });
      // The saved secret's mask comes with the settings read back: the message waits for it, so "saved" never
      // stands beside "Saved: none".
      await onSaved();
      setMessage({ ok: true, text: `${name} settings saved.` });
    } catch (err) {
      // What was typed stays in the boxes so it can be corrected; the message sits by the field it names.
      const error = toCallError(err);
      setMessage({ ok: false, text: error.message, ...(error.field ? { field: error.field } : {}) });
      if (error.field && error.field in values) document.getElementById(id(error.field))?.focus();
    }
  };

  const input = (field: keyof Values, label: string, options: { secret?: boolean; placeholder?: string; hint?: string } = {}) => (
    <EnvironmentField
      id={id(field)}
      label={label}
      value={values[field]}
      onChange={(value) => setValues((v) => ({ ...v, [field]: value }))}
      error={blamed === field ? (message?.text ?? null) : null}
      {...options}
    />
  );

  return (
    <form className="env-form" onSubmit={(e) => void save(e)} aria-labelledby={id('title')} data-testid={`env-form-${environment}`}>
      <h2 id={id('title')}>
        {name} environment {view.embedded ? '(built-in sandbox)' : ''} {view.complete ? '' : '— incomplete'}
      </h2>
      <div className="env-grid">
        {input('baseUrl', 'Service address (base URL)')}
        {input('merchantId', 'Merchant ID (MCH_…)')}
        {input('publicKeyId', `Public key id (pk_${environment}_…)`)}
        {input('secretKey', 'Secret key', {
          secret: true,
          placeholder: view.secretKeyMasked ? 'Leave empty to keep the saved key' : `sk_${environment}_…`,
          hint: `Saved: ${view.secretKeyMasked ?? 'none'}`,
        })}
        {input('relayUrl', 'Relay address (results come from here)')}
        {input('relayToken', 'Relay token', {
          secret: true,
          placeholder: view.relayTokenSet ? 'Leave empty to keep the saved token' : 'rt_…',
          hint: `Saved: ${view.relayTokenSet ? 'yes (hidden)' : 'none'}`,
        })}
      </div>
      <p className="hint">Callback address sent to the service: {view.callbackUrl || '—'}</p>
      <EnvironmentStatus id={id} saved={message && !blamed ? message : null} test={test} />
      <EnvironmentActions name={name} onTest={() => void testConnection()}>
        <UnsavedMark dirty={unsaved.dirty} testId={id('form-unsaved')} />
      </EnvironmentActions>
    </form>
  );
}

/** Save (the form's submit) and Test connection, then whatever else belongs beside them. */
function EnvironmentActions({ name, onTest, children }: { name: string; onTest: () => void; children: ReactNode }) {
  return (
    <div className="actions">
      <button type="submit" className="primary">
        Save {name} settings
      </button>
      <button type="button" className="secondary" onClick={onTest}>
        Test {name} connection
      </button>
      {children}
    </div>
  );
}

/** The last "Test connection" answer for this environment, and the action that asks for a new one. */
function useConnectionTest(environment: Environment) {
  const [test, setTest] = useState<TestResult>(null);
  const testConnection = async () => {
    setTest({ result: 'pending', message: 'Testing…' });
    try {
      setTest(await call('settings:testConnection', { environment }));
    } catch (err) {
      setTest({ result: 'error', message: toCallError(err).message });
    }
  };
  return [test, testConnection] as const;
}

/** What the last save said (when not about one field) and what the last connection test found. */
function EnvironmentStatus({ id, saved, test }: { id: (field: string) => string; saved: Message; test: TestResult }) {
  return (
    <>
      <SaveMessage message={saved} testId={id('save-message')} alertOnRefusal />
      {test ? (
        <p className={test.result === 'ok' ? 'ok-text' : 'form-error'} role="status" data-testid={id('test-result')}>
          {test.message}
        </p>
      ) : null}
    </>
  );
}
