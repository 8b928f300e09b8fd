/**
 * The section on screen and how it changes: a tab, or a late-result notice opening its payment in History.
 * Either asks first when the section being left holds unsaved edits (`guard`, use-unsaved.ts); leaving the
 * owner's sections for a cashier's ends the one-person shop's owner session.
 */
import { useCallback, useState } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { call } from '../api';
import { OWNER_PAGES, type Page } from './nav-tabs';

type Options = { ownerUnlocked: boolean; refresh: () => Promise<void>; guard: (go: () => void) => void };

export function usePages({ ownerUnlocked, refresh, guard }: Options) {
  const [page, setPage] = useState<Page>('charge');
  /** A payment opened from a late-result notice: History shows it. */
  const [shown, setShown] = useState<PaymentView | null>(null);

  const navigate = useCallback(
    (next: Page) => {
      const go = () => {
        if (!OWNER_PAGES.includes(next) && ownerUnlocked) void call('owner:lock', {}).then(refresh, () => undefined);
        setShown(null);
        setPage(next);
      };
      // The section's own tab again (History back to its list) leaves nothing behind: no question.
      if (next === page) go();
      else guard(go);
    },
    [page, guard, ownerUnlocked, refresh],
  );

  const openPayment = useCallback(
    (payment: PaymentView, dismiss: () => void) =>
      guard(() => {
        dismiss();
        setShown(payment);
        setPage('history');
      }),
    [guard],
  );

  return { page, setPage, shown, navigate, openPayment };
}
