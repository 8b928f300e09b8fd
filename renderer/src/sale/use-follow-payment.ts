/** Follows the payment being waited for: its events first, a slow poll as a safety net. */
import { useEffect } from 'react';
import type { PaymentView } from '../../../shared/ipc/contract';
import { call, onEvent } from '../api';

export function useFollowPayment(watchedId: string | undefined, show: (p: PaymentView) => void): void {
  useEffect(() => {
    if (!watchedId) return undefined;
    let following = true; // a poll answered after this screen stopped following is dropped
    const off = onEvent('payment:updated', (p) => {
      if (following && p.id === watchedId) show(p);
    });
    const timer = window.setInterval(() => {
      call('payments:get', { id: watchedId })
        .then((p) => {
          if (following && p && p.id === watchedId) show(p);
        })
        .catch(() => undefined);
    }, 4000);
    return () => {
      following = false;
      off();
      window.clearInterval(timer);
    };
  }, [watchedId, show]);
}
