/**
 * Every IPC channel's handler, from the handler maps kept with their domains (each domain's
 * `handlers.ts`, the one file of a domain besides its `index.ts` that may be imported from outside it,
 * and only from here). The type requires one handler per contract channel: a channel added to the
 * contract without one does not compile. Who may call each channel is not here but in
 * shared/ipc/roles.ts, checked by the dispatcher before any handler.
 */
import type { IpcChannel } from '../../shared/ipc/contract.js';
import type { CoreContext } from './core-context.js';
import type { HandlerMap } from './dispatcher.js';
import { dayHandlers } from './day/handlers.js';
import { historyHandlers } from './history/handlers.js';
import { paymentHandlers } from './payments/handlers.js';
import { createPeopleHandlers, staffHandlers } from './people/handlers.js';
import { createReceiptHandlers } from './printing/handlers.js';
import { appHandlers, settingsHandlers } from './settings/handlers.js';
import { settleHandlers } from './settle/handlers.js';
import { ownerLinksHandlers } from './owner-links/handlers.js';
import { createShiftHandlers } from './shifts/handlers.js';
import { takingsHandlers } from './takings/handlers.js';

export function createHandlers(ctx: CoreContext): HandlerMap<IpcChannel> {
  return {
    ...appHandlers(ctx),
    ...createPeopleHandlers(ctx),
    ...staffHandlers(ctx),
    ...settingsHandlers(ctx),
    ...paymentHandlers(ctx),
    ...historyHandlers(ctx),
    ...takingsHandlers(ctx),
    ...createReceiptHandlers(ctx),
    ...createShiftHandlers(ctx),
    ...dayHandlers(ctx),
    ...settleHandlers(ctx),
    ...ownerLinksHandlers(ctx),
  };
}
