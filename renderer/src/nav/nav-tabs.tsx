/** Front door of nav/ (what other folders may use): NavTabs and Page, usePages and useReturnFromLock, for app.tsx and screens.tsx. */
/**
 * Top navigation: plain buttons, reachable by Tab, current page marked for assistive tech. A section is shown
 * to whoever the core lets make its calls (shared/ipc/roles.ts); in the one-person shop the owner sections
 * are shown too, behind the owner PIN.
 */
import type { IpcChannelName } from '../../../shared/ipc/channels';
import { mayCall, type Caller } from '../../../shared/ipc/roles';
import './nav.css';

export type Page = 'charge' | 'history' | 'shifts' | 'takings' | 'day' | 'settings' | 'staff' | 'audit';

/** `staffOnly`: shown only once staff exist (shifts belong to signed-in people; the one-person shop has none). */
const PAGES: { id: Page; label: string; channel: IpcChannelName; gated: boolean; staffOnly?: true }[] = [
  { id: 'charge', label: 'Charge', channel: 'payments:charge', gated: false },
  { id: 'history', label: 'History', channel: 'history:search', gated: false },
  { id: 'shifts', label: 'Shift', channel: 'shifts:current', gated: false, staffOnly: true },
  { id: 'takings', label: 'Takings', channel: 'takings:report', gated: true },
  { id: 'day', label: 'Day close', channel: 'day:xReport', gated: true },
  { id: 'settings', label: 'Settings', channel: 'settings:get', gated: true },
  { id: 'staff', label: 'Staff', channel: 'staff:list', gated: false },
  { id: 'audit', label: 'Audit log', channel: 'audit:list', gated: false },
];

/** Sections that need the owner (or a manager) signed in: leaving them ends the one-person shop's owner session. */
export const OWNER_PAGES: readonly Page[] = ['takings', 'day', 'settings', 'staff', 'audit'];

export function pageAllowed(page: Page, caller: Caller): boolean {
  const p = PAGES.find((x) => x.id === page);
  return p !== undefined && (mayCall(caller, p.channel) || (caller === 'anonymous' && p.gated));
}

type Props = { page: Page; caller: Caller; staffMode: boolean; onNavigate: (page: Page) => void };

export function NavTabs({ page, caller, staffMode, onNavigate }: Props) {
  const shown = PAGES.filter((p) => pageAllowed(p.id, caller) && (staffMode || !p.staffOnly));
  return (
    <nav aria-label="Till sections" className="nav-tabs">
      {shown.map((p) => (
        <button
          key={p.id}
          type="button"
          className="nav-tab"
          aria-current={page === p.id ? 'page' : undefined}
          onClick={() => onNavigate(p.id)}
        >
          {p.label}
          {caller === 'anonymous' && p.gated ? <span className="owner-mark"> (owner)</span> : null}
        </button>
      ))}
    </nav>
  );
}
