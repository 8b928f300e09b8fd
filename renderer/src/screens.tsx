/** The section on screen (Charge, History, the owner's sections), each behind what guards it. */
import { useCallback, type ReactNode } from 'react';
import type { PaymentView } from '../../shared/ipc/contract';
import { call } from './api';
import type { Page } from './nav/nav-tabs';
import { ErrorBoundary } from './error-boundary';
import { HistoryScreen } from './history/history-screen';
import type { SettleAccess } from './history/settle-by-hand';
import type { AppStatus } from './hooks/use-app-status';
import type { useSale } from './sale/use-sale';
import { DayScreen } from './day/day-screen';
import { OwnerGate } from './owner/owner-gate';
import { SettingsScreen } from './settings/settings-screen';
import { TakingsScreen } from './takings/takings-screen';
import { AuditScreen } from './people/audit-screen';
import { StaffScreen } from './people/staff-screen';
import { SaleFlow } from './sale/sale-flow';
import { ShiftsScreen } from './shifts/shifts-screen';

type Props = {
  page: Page;
  status: AppStatus | null;
  refresh: () => Promise<void>;
  sale: ReturnType<typeof useSale>;
  announce: (message: string, urgent?: boolean) => void;
  /** A payment opened from a late-result notice: History shows it. */
  shown: PaymentView | null;
  /** A screen that failed to render: its button goes back to Charge. */
  onReset: () => void;
  /** Does `go` once unsaved edits are saved or discarded (the owner bar's Lock would drop them). */
  guard: (go: () => void) => void;
};

export function Screens({ page, status, refresh, sale, announce, shown, onReset, guard }: Props) {
  const lock = useCallback(() => {
    guard(() => void call('owner:lock', {}).then(refresh, () => undefined));
  }, [guard, refresh]);

  const timeZone = status?.timeZone ?? 'Africa/Accra';
  const till = { id: status?.tillId ?? '', name: status?.tillName ?? '' };
  // With no staff, History is not behind the owner PIN: settling by hand asks for it there.
  const settle: SettleAccess =
    status?.caller === 'manager' || status?.caller === 'owner' ? 'yes' : status?.pinSet && !status.staffMode ? 'owner-pin' : 'no';
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
    <ErrorBoundary resetKey={page} onReset={onReset}>
      {page === 'charge' ? <SaleFlow sale={sale} status={status} announce={announce} /> : null}
      {page === 'history' ? (
        <HistoryScreen
          // With staff, loaded afresh for whoever signs in next: what History may show depends on the person.
          // Without staff it shows the same to anyone, and the owner signs in at the payment to settle it by
          // hand: a remount then would close that payment before its settle form showed.
          key={`${status?.staffMode ? (status.signedIn?.id ?? 'nobody') : 'shop'}:${shown?.id ?? 'list'}`}
          timeZone={timeZone}
          initial={shown}
          till={till}
          settle={settle}
          onUnlocked={() => void refresh()}
          cashiers={Boolean(status?.staffMode) && settle === 'yes'}
          ownShift={status?.caller === 'cashier'}
        />
      ) : null}
      {page === 'shifts' && status?.signedIn ? (
        <ShiftsScreen key={status.signedIn.id} timeZone={timeZone} person={status.signedIn} />
      ) : null}
      {page === 'takings' && status ? gated(<TakingsScreen timeZone={timeZone} till={till} />) : null}
      {page === 'day' && status ? gated(<DayScreen timeZone={timeZone} tillName={till.name} />) : null}
      {/* Unlike the other sections, Settings is not left under the lock (its boxes could hold a secret being
          typed): its unsaved edits are kept in memory instead, secrets left out (unsaved/use-unsaved.ts). */}
      {page === 'settings' && status && status.caller !== 'locked'
        ? gated(<SettingsScreen status={status} onChanged={() => void refresh()} />)
        : null}
      {page === 'staff' ? <StaffScreen onChanged={() => void refresh()} /> : null}
      {page === 'audit' ? <AuditScreen timeZone={timeZone} /> : null}
    </ErrorBoundary>
  );
}
