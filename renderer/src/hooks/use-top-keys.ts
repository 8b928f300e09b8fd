import { useEffect, type RefObject } from 'react';

/**
 * Whether a screen is the one on top: mounted, not hidden or inert (as the screens are under the lock),
 * and not covered by a modal question elsewhere. A screen left mounted under a lock keeps its window
 * listeners, so each one asks this before acting on a key.
 */
export function isOnTop(root: HTMLElement | null): boolean {
  if (!root || !root.isConnected) return false;
  if (root.closest('[inert], [hidden]')) return false;
  for (const modal of document.querySelectorAll('[aria-modal="true"]')) {
    if (!modal.contains(root)) return false;
  }
  return true;
}

/** A field someone types into, outside the screen: its keys are its own. */
function typedElsewhere(target: EventTarget | null, root: HTMLElement): boolean {
  if (!(target instanceof HTMLElement) || root.contains(target)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * A window-level key handler for the screen under `root` that only runs while that screen is on top:
 * keys typed at a lock, a question or another screen's field never reach it.
 */
export function useTopKeys(root: RefObject<HTMLElement | null>, onKey: (e: KeyboardEvent) => void): void {
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      const el = root.current;
      if (!el || !isOnTop(el) || typedElsewhere(e.target, el)) return;
      onKey(e);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [root, onKey]);
}
