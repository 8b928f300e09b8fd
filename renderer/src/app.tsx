/** The till's shell: always-visible status, navigation, the sale flow and the owner screens. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PaymentView } from '../../shared/ipc/contract';
import { call } from './api';
import { useAnnounce } from './components/announcer';
import { LateNotices } from './components/late-notices';
import { NavTabs, type Page } from './components/nav-tabs';
import { SandboxBanner } from './components/sandbox-banner';
import { StatusBar } from './components/status-bar';
import { SaleFlow } from './sale/sale-flow';
import { HistoryScreen } from './history/history-screen';
import { useAppStatus } from './hooks/use-app-status';
import { useLateResults } from './hooks/use-late-results';
import { useSale } from './hooks/use-sale';
import { OwnerGate } from './owner/owner-gate';
import { SettingsScreen } from './owner/settings-screen';
import { TakingsScreen } from './owner/takings-screen';
import { ErrorBoundary } from './error-boundary';

export function App() {
  const { status, error, refresh } = useAppStatus();
  const [page, setPage] = useState<Page>('charge');
  const announce = useAnnounce();
  const late = useLateResults(announce, status?.environment);
  const sale = useSale(late.watch, status?.counter.amountEntry ?? 'cedis');
  const [shown, setShown] = useState<PaymentView | null>(null);

  // A sale never crosses environments: a TEST result must not be on screen in LIVE (nor the reverse).
  const environment = status?.environment;
  const previous = useRef(environment);
  const { payment: salePayment, newSale } = sale;
  const watchLate = late.watch;
  useEffect(() => {
    if (previous.current && environment && previous.current !== environment) {
      if (salePayment) watchLate(salePayment);
      newSale();
    }
    previous.current = environment;
  }, [environment, salePayment, newSale, watchLate]);

  const navigate = useCallback(
    (next: Page) => {
      const owner = next === 'takings' || next === 'settings';
      if (!owner && status?.ownerUnlocked) void call('owner:lock', {}).then(refresh, () => undefined);
      setShown(null);
      setPage(next);
    },
    [status?.ownerUnlocked, refresh],
  );

  const lock = useCallback(() => {
    void call('owner:lock', {}).then(refresh, () => undefined);
  }, [refresh]);

  const timeZone = status?.timeZone ?? 'Africa/Accra';
  const till = { id: status?.tillId ?? '', name: status?.tillName ?? '' };
  const env = status?.environment ?? 'test';

  return (
    <div className={`app env-${env}`}>
      <header className="top">
        {env === 'test' ? <SandboxBanner /> : null}
        <div className="top-row">
          <StatusBar status={status} />
          <NavTabs page={page} onNavigate={navigate} />
        </div>
      </header>
      <main className="main">
        <LateNotices
          notices={late.notices}
          onDismiss={late.dismiss}
          onOpen={(p) => {
            late.dismiss(p.id);
            setShown(p);
            setPage('history');
          }}
        />
        {error ? (
          <p className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {/* A screen that fails to render leaves the status bar and tabs working; its button goes back to Charge. */}
        <ErrorBoundary resetKey={page} onReset={() => navigate('charge')}>
          {page === 'charge' ? <SaleFlow sale={sale} status={status} announce={announce} /> : null}
          {page === 'history' ? <HistoryScreen key={shown?.id ?? 'list'} timeZone={timeZone} initial={shown} till={till} /> : null}
          {page === 'takings' && status ? (
            <OwnerGate status={status} onChanged={() => void refresh()} onLock={lock}>
              <TakingsScreen timeZone={timeZone} till={till} />
            </OwnerGate>
          ) : null}
          {page === 'settings' && status ? (
            <OwnerGate status={status} onChanged={() => void refresh()} onLock={lock}>
              <SettingsScreen status={status} onChanged={() => void refresh()} />
            </OwnerGate>
          ) : null}
        </ErrorBoundary>
      </main>
    </div>
  );
}
