/**
 * The signed-in person as the screens see it: follows the core's session events, tells the core the
 * till is in use (so the idle lock counts from the last key or tap), and says why the till locked.
 */
import { useEffect, useRef, useState } from 'react';
import { call, onEvent, onRefused } from '../api';

/** At most one "still in use" call per this many milliseconds. */
const TOUCH_EVERY_MS = 20_000;

const REASONS = { idle: 'The till locked itself after a while without use.', lock: null, 'sign-out': null, 'sign-in': null } as const;

export function useSession(signedIn: boolean, refresh: () => Promise<void>): { lockReason: string | null } {
  const [lockReason, setLockReason] = useState<string | null>(null);
  const lastTouch = useRef(0);

  useEffect(
    () =>
      onEvent('session:changed', (p) => {
        setLockReason(REASONS[p.reason]);
        void refresh();
      }),
    [refresh],
  );

  // A refusal may be the first sign of a lock the screens have not heard of: read the status again.
  useEffect(() => onRefused(() => void refresh()), [refresh]);

  useEffect(() => {
    if (!signedIn) return undefined;
    const touch = () => {
      const now = Date.now();
      if (now - lastTouch.current < TOUCH_EVERY_MS) return;
      lastTouch.current = now;
      void call('session:touch', {}).catch(() => undefined);
    };
    window.addEventListener('keydown', touch, true);
    window.addEventListener('pointerdown', touch, true);
    return () => {
      window.removeEventListener('keydown', touch, true);
      window.removeEventListener('pointerdown', touch, true);
    };
  }, [signedIn]);

  return { lockReason };
}
