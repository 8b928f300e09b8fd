/** Back from the lock (or the first start): the focus and the section the screens underneath take up again. */
import { useEffect, useLayoutEffect } from 'react';
import type { Caller } from '../../../shared/ipc/roles';
import { pageAllowed, type Page } from './nav-tabs';

type Options = { locked: boolean; firstStart: boolean; page: Page; caller: Caller; setPage: (page: Page) => void };

export function useReturnFromLock({ locked, firstStart, page, caller, setPage }: Options) {
  // The focus goes where the screen underneath put it on arrival (the amount, "New sale"…).
  useLayoutEffect(() => {
    if (locked || firstStart) return;
    const marked = document.querySelectorAll<HTMLElement>('.screens [data-arrival-focus], .screens #amount');
    marked[marked.length - 1]?.focus();
  }, [locked, firstStart]);
  // Whoever signs in next starts on a section they may use (a cashier after the owner is not left on Settings).
  useEffect(() => {
    if (!locked && !pageAllowed(page, caller)) setPage('charge');
  }, [caller, locked, page, setPage]);
}
