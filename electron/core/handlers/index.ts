/** The handlers wing's front door (what the core's index uses): `createHandlers`, every IPC channel's handler. */
/*
 * One map per domain (this folder's `<domain>.ts`), combined by `combineHandlers`, which refuses a channel
 * given twice. The type requires one handler per contract channel: a channel added to the contract
 * without one does not compile. Each map takes only the parts of the core it uses. Who may call each
 * channel is not here but in shared/ipc/roles.ts, checked by the dispatcher before any handler.
 */
import type { IpcChannel } from '../../../shared/ipc/contract.js';
import type { CoreContext } from '../core-context.js';
import type { HandlerMap } from '../dispatcher.js';
import { alertsHandlers } from './alerts.js';
import { appHandlers } from './app.js';
import { combineHandlers } from './combine.js';
import { dayHandlers } from './day.js';
import { historyHandlers } from './history.js';
import { ownerLinksHandlers } from './owner-links.js';
import { paymentHandlers } from './payments.js';
import { peopleHandlers, staffHandlers } from './people.js';
import { printingHandlers } from './printing.js';
import { settingsHandlers } from './settings.js';
import { settleHandlers } from './settle.js';
import { shiftHandlers } from './shifts.js';
import { takingsHandlers } from './takings.js';
import { updatesHandlers } from './updates.js';

export function createHandlers(ctx: CoreContext): HandlerMap<IpcChannel> {
  return combineHandlers(
    appHandlers(ctx),
    peopleHandlers(ctx),
    staffHandlers(ctx),
    settingsHandlers(ctx),
    paymentHandlers(ctx),
    historyHandlers(ctx),
    takingsHandlers(ctx),
    printingHandlers(ctx),
    shiftHandlers(ctx),
    dayHandlers(ctx),
    settleHandlers(ctx),
    alertsHandlers(ctx),
    ownerLinksHandlers(ctx),
    updatesHandlers(ctx),
  );
}

export { combineHandlers } from './combine.js';
