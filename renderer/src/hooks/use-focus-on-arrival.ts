import { useLayoutEffect, type RefObject } from 'react';

/**
 * Puts the keyboard focus on an element when its screen appears, in the same task as the screen itself
 * (a layout effect, before the browser paints or handles the next key): a cashier's fast Tab or Enter
 * can never land on whatever had the focus a moment before.
 */
export function useFocusOnArrival(ref: RefObject<HTMLElement | null>, enabled = true): void {
  useLayoutEffect(() => {
    if (!enabled || !ref.current) return;
    // Marked so the focus can go back to it when the screen is shown again after the till was locked.
    ref.current.dataset.arrivalFocus = '';
    ref.current.focus();
  }, [ref, enabled]);
}
