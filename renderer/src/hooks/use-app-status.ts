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
    const offRelay = onEvent('relay:state', (p: { state: RelayState; environment: Environment }) => {
      setStatus((s) => (s && s.environment === p.environment ? { ...s, relayState: p.state } : s));
    });
    const offApp = onEvent('app:changed', () => void refresh());
    const offOwner = onEvent('owner:changed', (p) => {
      setStatus((s) => (s && s.ownerUnlocked !== p.unlocked ? { ...s, ownerUnlocked: p.unlocked } : s));
    });
    return () => {
      offRelay();
      offApp();
      offOwner();
    };
  }, [refresh, setStatus]);

  return { status, error, refresh };
}
