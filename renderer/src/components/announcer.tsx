/** One polite and one assertive aria-live region for the whole app; screens call announce(). */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

type Announce = (message: string, urgent?: boolean) => void;
const AnnounceContext = createContext<Announce>(() => undefined);

export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [polite, setPolite] = useState('');
  const [assertive, setAssertive] = useState('');
  const announce = useCallback<Announce>((message, urgent = false) => {
    // Clear first so the same message twice is announced twice.
    const set = urgent ? setAssertive : setPolite;
    set('');
    window.setTimeout(() => set(message), 50);
  }, []);
  const value = useMemo(() => announce, [announce]);
  return (
    <AnnounceContext.Provider value={value}>
      {children}
      <div className="visually-hidden" aria-live="polite" role="status" data-testid="live-polite">
        {polite}
      </div>
      <div className="visually-hidden" aria-live="assertive" role="alert" data-testid="live-assertive">
        {assertive}
      </div>
    </AnnounceContext.Provider>
  );
}

export function useAnnounce(): Announce {
  return useContext(AnnounceContext);
}
