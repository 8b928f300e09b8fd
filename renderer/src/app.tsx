/** The till's shell: always-visible status, navigation, the sale flow and the owner screens. */
import { useState } from 'react';
import { useAnnounce } from './components/announcer';
import { LateNotices } from './sale/late-notices';
import { NavTabs } from './nav/nav-tabs';
import { SandboxBanner } from './components/sandbox-banner';
import { StatusBar } from './components/status-bar';
import { useAppStatus } from './hooks/use-app-status';
import { useLateResults } from './sale/use-late-results';
import { useReturnFromLock } from './nav/use-return-from-lock';
import { useSale } from './sale/use-sale';
import { useSaleFollowsEnvironment } from './sale/use-sale-follows-environment';
import { Screens } from './screens';
import { FirstStart, ownerPinSkipped } from './people/first-start';
import { SessionBadge } from './people/session-badge';
import { SignInScreen } from './people/sign-in-screen';
import { useSession } from './people/use-session';
import { FormError } from './components/form-error';
import { OwnerAlerts } from './alerts/owner-alerts';
import { LeaveDialog } from './unsaved/leave-dialog';
import { UnsavedContext, useLeaveGuard } from './unsaved/use-unsaved';
import { usePages } from './nav/use-pages';

export function App() {
  const { status, error, refresh } = useAppStatus();
  const announce = useAnnounce();
  // Payments are read only once someone may see them: not at the lock.
  const who = !status || status.caller === 'locked' ? null : (status.signedIn?.id ?? status.caller);
  const late = useLateResults(announce, status?.environment, who);
  const sale = useSale(late.watch, status?.counter.amountEntry ?? 'cedis');
  const session = useSession(Boolean(status?.signedIn), refresh);
  const [firstStartDone, setFirstStartDone] = useState(ownerPinSkipped);
  // Leaving a section with unsaved edits (Settings) asks first; Enter keeps them. A lock by the core keeps
  // them in memory for whoever is signed in now, and drops them if someone else signs in next.
  const leave = useLeaveGuard(status?.signedIn?.id ?? null);

  useSaleFollowsEnvironment(status?.environment, sale, late.watch);

  const { page, setPage, shown, navigate, openPayment } = usePages({
    ownerUnlocked: Boolean(status?.ownerUnlocked),
    refresh,
    guard: leave.guard,
  });

  const env = status?.environment ?? 'test';
  const caller = status?.caller ?? 'anonymous';
  const firstStart = status !== null && !status.pinSet && !firstStartDone;
  // Locked: the sign-in covers the screens, which stay mounted underneath so a payment in flight and its
  // result are still there (with who started it) for whoever signs in next.
  const locked = caller === 'locked';
  useReturnFromLock({ locked, firstStart, page, caller, setPage });
  return (
    <UnsavedContext.Provider value={leave.registry}>
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
          <LateNotices notices={late.notices} onDismiss={late.dismiss} onOpen={(p) => openPayment(p, () => late.dismiss(p.id))} />
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
          {/* Inert as well as hidden: nothing under the lock or the first start takes a key, a click or the focus.
              A question over the screens (aria-modal) stops their window-level keys too (hooks/use-top-keys.ts). */}
          <div hidden={locked || firstStart} inert={locked || firstStart} className="screens">
            <Screens
              page={page}
              status={status}
              refresh={refresh}
              sale={sale}
              announce={announce}
              shown={shown}
              onReset={() => navigate('charge')}
              guard={leave.guard}
            />
          </div>
          {leave.leaving ? <LeaveDialog sections={leave.leaving.sections} onKeep={leave.keep} onDiscard={leave.discard} /> : null}
        </main>
      </div>
    </UnsavedContext.Provider>
  );
}
