/** The always-visible facts: environment, relay state, till name, PIN/owner state. */
import { useEffect } from 'react';
import type { IpcResponse, RelayState } from '../../../shared/ipc/contract';
import { call, onEvent } from '../api';
import type { Environment } from '../../../shared/domain';
import { useCoreRead } from './use-core-read';

export type AppStatus = IpcResponse<'app:status'>;

const readStatus = () => call('app:status', {});

export function useAppStatus(): {
  status: AppStatus | null;
  error: string | null;
  refresh: () => Promise<void>;
} {
  const { value: status, setValue: setStatus, error, reload: refresh } = useCoreRead(readStatus);

  useEffect(() => {
    // An event is shown at once, and read again: a read already on its way may predate it, and only the newest
    // read's answer is shown, so the status never goes back to what the event replaced.
    const offRelay = onEvent('relay:state', (p: { state: RelayState; environment: Environment }) => {
      setStatus((s) => (s && s.environment === p.environment ? { ...s, relayState: p.state } : s));
      void refresh();
    });
    const offApp = onEvent('app:changed', () => void refresh());
    const offOwner = onEvent('owner:changed', (p) => {
      setStatus((s) => (s && s.ownerUnlocked !== p.unlocked ? { ...s, ownerUnlocked: p.unlocked } : s));
      void refresh();
    });
    return () => {
      offRelay();
      offApp();
      offOwner();
    };
  }, [refresh, setStatus]);

  return { status, error, refresh };
}
