/** Front door of settings/ (what other folders may use): SettingsScreen, for screens.tsx. */
/**
 * Settings: mode switch, till details, the counter's amounts, receipts and printer, both environments (masked secrets, test
 * connection), takings on the owner's phone, the PIN, the version and its updates.
 */
import { call } from '../api';
import type { AppStatus } from '../hooks/use-app-status';
import { useCoreRead } from '../hooks/use-core-read';
import { useKeptSummary } from '../unsaved/use-unsaved';
import { EnvironmentForm } from './environment-form';
import { EnvironmentSwitch } from './environment-switch';
import { PinSetup } from '../owner/pin-setup';
import { CounterForm } from './counter-form';
import { ReceiptForm } from '../printing/receipt-form';
import { TillForm } from './till-form';
import { AppUpdate } from './app-update';
import { OwnerLinks } from '../owner-links/owner-links';
import { KeptNotice } from '../unsaved/kept-notice';
import { FormError } from '../components/form-error';
import { Screen } from '../components/screen';
import './settings.css';

const readSettings = () => call('settings:get', {});

export function SettingsScreen({ status, onChanged }: { status: AppStatus; onChanged: () => void }) {
  const { value: settings, error, reload: load } = useCoreRead(readSettings);
  // Read as the page opens, before its sections take back what a lock kept of their edits.
  const kept = useKeptSummary();

  // Resolves once the page has read the settings back, so a section says "saved" only beside what was saved.
  const changed = async () => {
    onChanged();
    await load();
  };

  return (
    <Screen name="settings" title="Settings">
      <FormError message={error} />
      <KeptNotice summary={kept} />
      <EnvironmentSwitch
        active={status.environment}
        liveReady={status.liveReady}
        browserMode={status.shell === 'browser'}
        settingsRead={settings}
        onChanged={changed}
      />
      {settings ? (
        <>
          <TillForm tillName={settings.tillName} timeZone={settings.timeZone} idleLockMinutes={status.idleLockMinutes} onSaved={changed} />
          <CounterForm counter={status.counter} onSaved={changed} />
          <ReceiptForm settings={settings.receipt} onSaved={changed} browserMode={status.shell === 'browser'} />
          <EnvironmentForm environment="test" view={settings.test} onSaved={changed} />
          <EnvironmentForm environment="live" view={settings.live} onSaved={changed} />
          <OwnerLinks environment={status.environment} />
        </>
      ) : (
        <p>Loading…</p>
      )}
      <PinSetup mode="change" onDone={onChanged} />
      <AppUpdate />
    </Screen>
  );
}
