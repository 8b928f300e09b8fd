/** Front door of hooks/ (what other folders may use): generic hooks, one a file, and useAppStatus; they import only api.ts. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api';

/**
 * Something read from the core: read at first render, again whenever `read` changes (keep it stable:
 * module-level or useCallback) and on `reload`. `value` is null until the first answer; a failed read
 * keeps the last value and shows why until a read succeeds. Only the newest read's answer is shown.
 */
export function useCoreRead<T>(read: () => Promise<T>) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const newest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++newest.current;
    try {
      const next = await read();
      // Answers can arrive out of order: one overtaken by a newer read may predate what the screen shows since.
      if (mine !== newest.current) return;
      setValue(() => next);
      setError(null);
    } catch (e) {
      if (mine === newest.current) setError(errorMessage(e));
    }
  }, [read]);
  useEffect(() => void reload(), [reload]);
  return { value, setValue, error, setError, reload };
}
