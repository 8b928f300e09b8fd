/**
 * Every IPC channel's handler, from the handler maps kept with their domains. The type requires one
 * handler per contract channel: a channel added to the contract without one does not compile. Who may
 * call each channel is not here but in shared/ipc/roles.ts, checked by the dispatcher before any handler.
 */
import type { IpcChannel } from '../../shared/ipc/contract.js';
import { appHandlers } from './app-handlers.js';
import type { CoreContext } from './core-context.js';
import { dayHandlers } from './day-handlers.js';
import type { HandlerMap } from './dispatcher.js';
import { paymentHandlers } from './payment-handlers.js';
import { createPeopleHandlers } from './people-handlers.js';
import { createReceiptHandlers } from './printing/receipt-handlers.js';
import { reportHandlers } from './report-handlers.js';
import { settingsHandlers } from './settings-handlers.js';
import { settleHandlers } from './settle-handlers.js';
import { createShiftHandlers } from './shift-handlers.js';
import { staffHandlers } from './staff-handlers.js';

export function createHandlers(ctx: CoreContext): HandlerMap<IpcChannel> {
  return {
    ...appHandlers(ctx),
    ...createPeopleHandlers(ctx),
    ...staffHandlers(ctx),
    ...settingsHandlers(ctx),
    ...paymentHandlers(ctx),
    ...reportHandlers(ctx),
    ...createReceiptHandlers(ctx),
    ...createShiftHandlers(ctx),
    ...dayHandlers(ctx),
    ...settleHandlers(ctx),
  };
}
