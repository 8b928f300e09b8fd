/** The always-visible facts: environment, relay state, till name, PIN/owner state. */
import { useCallback, useEffect, useState } from 'react';
import type { IpcResponse, RelayState } from '../../../shared/ipc/contract';
import { call, errorMessage, onEvent } from '../api';
import type { Environment } from '../../../shared/domain';

export type AppStatus = IpcResponse<'app:status'>;

export function useAppStatus(): {
  status: AppStatus | null;
  error: string | null;
  refresh: () => Promise<void>;
} {
  const [status, setStatus] = useState<AppStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      setStatus(await call('app:status', {}));
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);

  useEffect(() => {
    void refresh();
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
  }, [refresh]);

  return { status, error, refresh };
}
