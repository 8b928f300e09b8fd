/** The till's shell: always-visible status, navigation, the sale flow and the owner screens. */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { PaymentView } from '../../shared/ipc/contract';
import { call } from './api';
import { useAnnounce } from './components/announcer';
import { LateNotices } from './components/late-notices';
import { NavTabs, OWNER_PAGES, pageAllowed, type Page } from './components/nav-tabs';
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
import { AuditScreen } from './people/audit-screen';
import { FirstStart, ownerPinSkipped } from './people/first-start';
import { SessionBadge } from './people/session-badge';
import { SignInScreen } from './people/sign-in-screen';
import { StaffScreen } from './people/staff-screen';
import { useSession } from './people/use-session';
import { FormError } from './components/form-error';

export function App() {
  const { status, error, refresh } = useAppStatus();
  const [page, setPage] = useState<Page>('charge');
  const announce = useAnnounce();
  const late = useLateResults(announce, status?.environment);
  const sale = useSale(late.watch, status?.counter.amountEntry ?? 'cedis');
  const [shown, setShown] = useState<PaymentView | null>(null);
  const session = useSession(Boolean(status?.signedIn), refresh);
  const [firstStartDone, setFirstStartDone] = useState(ownerPinSkipped);

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
      const owner = OWNER_PAGES.includes(next);
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
  const caller = status?.caller ?? 'anonymous';
  const firstStart = status !== null && !status.pinSet && !firstStartDone;
  // Locked: the sign-in covers the screens, which stay mounted underneath so a payment in flight and its
  // result are still there (with who started it) for whoever signs in next.
  const locked = caller === 'locked';
  // Back from the lock: the focus goes where the screen underneath put it on arrival (the amount, "New sale"…).
  useLayoutEffect(() => {
    if (locked || firstStart) return;
    const marked = document.querySelectorAll<HTMLElement>('.screens [data-arrival-focus], .screens #amount');
    marked[marked.length - 1]?.focus();
  }, [locked, firstStart]);
  // Whoever signs in next starts on a section they may use (a cashier after the owner is not left on Settings).
  useEffect(() => {
    if (!locked && !pageAllowed(page, caller)) setPage('charge');
  }, [caller, locked, page]);
  // With staff, each person signs in as themselves: no separate owner PIN gate in front of the sections.
  const gated = (children: ReactNode) =>
    status && !status.staffMode ? (
      <OwnerGate status={status} onChanged={() => void refresh()} onLock={lock}>
        {children}
      </OwnerGate>
    ) : (
      children
    );

  return (
    <div className={`app env-${env}`}>
      <header className="top">
        {env === 'test' ? <SandboxBanner /> : null}
        <div className="top-row">
          <StatusBar status={status} />
          {status?.signedIn && status.staffMode ? <SessionBadge person={status.signedIn} onChanged={() => void refresh()} /> : null}
          {locked || firstStart ? null : <NavTabs page={page} caller={caller} onNavigate={navigate} />}
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
        <FormError message={error} />
        {firstStart ? (
          <FirstStart
            onDone={() => {
              setFirstStartDone(true);
              void refresh();
            }}
          />
        ) : null}
        {locked && !firstStart ? <SignInScreen reason={session.lockReason} onSignedIn={() => void refresh()} /> : null}
        {/* A screen that fails to render leaves the status bar and tabs working; its button goes back to Charge. */}
        <div hidden={locked || firstStart} className="screens">
          <ErrorBoundary resetKey={page} onReset={() => navigate('charge')}>
            {page === 'charge' ? <SaleFlow sale={sale} status={status} announce={announce} /> : null}
            {page === 'history' ? <HistoryScreen key={shown?.id ?? 'list'} timeZone={timeZone} initial={shown} till={till} /> : null}
            {page === 'takings' && status ? gated(<TakingsScreen timeZone={timeZone} till={till} />) : null}
            {page === 'settings' && status ? gated(<SettingsScreen status={status} onChanged={() => void refresh()} />) : null}
            {page === 'staff' ? <StaffScreen onChanged={() => void refresh()} /> : null}
            {page === 'audit' ? <AuditScreen timeZone={timeZone} /> : null}
          </ErrorBoundary>
        </div>
      </main>
    </div>
  );
}
