import type { PaymentView } from '../../../shared/ipc/contract';

/**
 * Whether an update still belongs on the Waiting screen. Once the cashier stops waiting, that payment's
 * updates (its own "stopped waiting" echo, or a poll answered just after) arrive on a channel that can
 * overtake the stop's reply; shown, they would reopen the Waiting screen over the next sale. Its result
 * still reaches the cashier as a notice.
 */
export function belongsOnWaitingScreen(update: PaymentView, stoppedId: string | null): boolean {
  return !update.stoppedWaiting && update.id !== stoppedId;
}
