/** Top navigation: plain buttons, reachable by Tab, current page marked for assistive tech. */
export type Page = 'charge' | 'history' | 'takings' | 'settings';

const PAGES: { id: Page; label: string; owner: boolean }[] = [
  { id: 'charge', label: 'Charge', owner: false },
  { id: 'history', label: 'History', owner: false },
  { id: 'takings', label: 'Takings', owner: true },
  { id: 'settings', label: 'Settings', owner: true },
];

export function NavTabs({ page, onNavigate }: { page: Page; onNavigate: (page: Page) => void }) {
  return (
    <nav aria-label="Till sections" className="nav-tabs">
      {PAGES.map((p) => (
        <button
          key={p.id}
          type="button"
          className="nav-tab"
          aria-current={page === p.id ? 'page' : undefined}
          onClick={() => onNavigate(p.id)}
        >
          {p.label}
          {p.owner ? <span className="owner-mark"> (owner)</span> : null}
        </button>
      ))}
    </nav>
  );
}
