/** The till's shell: always-visible status, navigation, the sale flow and the owner screens. */
import { useCallback, useState } from 'react';
import type { PaymentView } from '../../shared/ipc/contract';
import { call } from './api';
import { useAnnounce } from './components/announcer';
import { LateNotices } from './components/late-notices';
import { NavTabs, OWNER_PAGES, type Page } from './components/nav-tabs';
import { SandboxBanner } from './components/sandbox-banner';
import { StatusBar } from './components/status-bar';
import { useAppStatus } from './hooks/use-app-status';
import { useLateResults } from './hooks/use-late-results';
import { useReturnFromLock } from './hooks/use-return-from-lock';
import { useSale } from './hooks/use-sale';
import { useSaleFollowsEnvironment } from './hooks/use-sale-follows-environment';
import { Screens } from './screens';
import { FirstStart, ownerPinSkipped } from './people/first-start';
import { SessionBadge } from './people/session-badge';
import { SignInScreen } from './people/sign-in-screen';
import { useSession } from './people/use-session';
import { FormError } from './components/form-error';
import { OwnerAlerts } from './components/owner-alerts';

export function App() {
  const { status, error, refresh } = useAppStatus();
  const [page, setPage] = useState<Page>('charge');
  const announce = useAnnounce();
  const late = useLateResults(announce, status?.environment);
  const sale = useSale(late.watch, status?.counter.amountEntry ?? 'cedis');
  const [shown, setShown] = useState<PaymentView | null>(null);
  const session = useSession(Boolean(status?.signedIn), refresh);
  const [firstStartDone, setFirstStartDone] = useState(ownerPinSkipped);

  useSaleFollowsEnvironment(status?.environment, sale, late.watch);

  const navigate = useCallback(
    (next: Page) => {
      const owner = OWNER_PAGES.includes(next);
      if (!owner && status?.ownerUnlocked) void call('owner:lock', {}).then(refresh, () => undefined);
      setShown(null);
      setPage(next);
    },
    [status?.ownerUnlocked, refresh],
  );

  const env = status?.environment ?? 'test';
  const caller = status?.caller ?? 'anonymous';
  const firstStart = status !== null && !status.pinSet && !firstStartDone;
  // Locked: the sign-in covers the screens, which stay mounted underneath so a payment in flight and its
  // result are still there (with who started it) for whoever signs in next.
  const locked = caller === 'locked';
  useReturnFromLock({ locked, firstStart, page, caller, setPage });
  return (
    <div className={`app env-${env}`}>
      <header className="top">
        {env === 'test' ? <SandboxBanner /> : null}
        <div className="top-row">
          <StatusBar status={status} />
          {status?.signedIn && status.staffMode ? <SessionBadge person={status.signedIn} onChanged={() => void refresh()} /> : null}
          {locked || firstStart ? null : (
            <NavTabs page={page} caller={caller} staffMode={status?.staffMode ?? false} onNavigate={navigate} />
          )}
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
        {caller === 'owner' ? <OwnerAlerts timeZone={status?.timeZone ?? 'Africa/Accra'} /> : null}
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
          <Screens
            page={page}
            status={status}
            refresh={refresh}
            sale={sale}
            announce={announce}
            shown={shown}
            onReset={() => navigate('charge')}
          />
        </div>
      </main>
    </div>
  );
}
