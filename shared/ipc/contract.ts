/**
 * The one IPC contract between the renderer and the till core.
 *
 * Every call is `domain:verb` (the domain named like its folders, e.g. `owner-links:create`) with a zod
 * request and response schema. The main process registers a handler for each channel in a loop
 * (validating the request and the sender), the preload exposes only `invoke(channel, payload)` for these
 * channels and `on(event, cb)` for the events below, and the browser-test bridge forwards the same calls
 * to the same core. The list is written once: each
 * domain's channels and schemas live in their own file here (`<domain>-contract.ts`, named like the
 * channels' prefix) and are assembled below; import everything from this module.
 */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES, type IpcChannelName, type IpcEventName } from './channels.js';
import { paymentChannels, paymentViewSchema } from './payment-contract.js';
import { peopleChannels, personSchema } from './people-contract.js';
import { receiptChannels } from './receipt-contract.js';
import { settleChannels } from './settle-contract.js';
import { alertsChannels } from './alerts-contract.js';
import { ownerLinksChannels } from './owner-links-contract.js';
import { counterSettingsSchema, settingsChannels } from './settings-contract.js';
import { takingsChannels } from './takings-contract.js';
import { dayChannels } from './day-contract.js';
import { updatesChannels } from './updates-contract.js';
import { printerKindSchema } from '../receipt/receipt-settings.js';
import { CALLERS } from './roles.js';
import { SHELLS } from '../shell.js';

export * from './payment-contract.js';
export * from './people-contract.js';
export * from './settings-contract.js';
export * from './settle-contract.js';
export * from './alerts-contract.js';
export * from './owner-links-contract.js';
export * from './takings-contract.js';
export * from './day-contract.js';
export * from './updates-contract.js';

export const relayStateSchema = z.enum(['connected', 'reconnecting', 'offline']);
export type RelayState = z.infer<typeof relayStateSchema>;

/** Calls: request and response schema for each channel, assembled from the per-domain parts. */
export const ipcContract = {
  'app:status': {
    request: z.object({}).strict(),
    response: z.object({
      environment: environmentSchema,
      tillId: z.string(),
      tillName: z.string(),
      timeZone: z.string(),
      relayState: relayStateSchema,
      pinSet: z.boolean(),
      ownerUnlocked: z.boolean(),
      liveReady: z.boolean(),
      version: z.string(),
      /** The desktop app or browser mode (which takes TEST payments only and has no silent system printing). */
      shell: z.enum(SHELLS),
      /** True while the active environment runs on the simulator and relay the app started itself. */
      embedded: z.boolean(),
      /** When the owner session ends (ISO), null while locked. */
      ownerUnlockedUntil: z.string().nullable(),
      /** What the sale screens need to know about printing. */
      printing: z.object({ printer: printerKindSchema, autoPrint: z.boolean() }),
      counter: counterSettingsSchema,
      /** Who is signed in, and what the core lets the screens do (see shared/ipc/roles.ts). */
      signedIn: personSchema.nullable(),
      caller: z.enum(CALLERS),
      /** Staff exist: the till asks "Who is selling?". */
      staffMode: z.boolean(),
      idleLockMinutes: z.number().int(),
    }),
  },
  ...peopleChannels,
  ...settingsChannels,
  ...paymentChannels,
  ...takingsChannels,
  ...receiptChannels,
  ...dayChannels,
  ...settleChannels,
  ...alertsChannels,
  ...ownerLinksChannels,
  ...updatesChannels,
} as const;

export type IpcContract = typeof ipcContract;
export type IpcChannel = keyof IpcContract;
export type IpcRequest<C extends IpcChannel> = z.input<IpcContract[C]['request']>;
export type IpcResponse<C extends IpcChannel> = z.infer<IpcContract[C]['response']>;
export const IPC_CHANNELS: readonly IpcChannel[] = IPC_CHANNEL_NAMES;

/** Events pushed from the core to the renderer. */
export const ipcEvents = {
  'payment:updated': paymentViewSchema,
  'relay:state': z.object({ state: relayStateSchema, environment: environmentSchema }),
  'app:changed': z.object({ environment: environmentSchema }),
  /** The owner session was unlocked or ended (also when it expires). */
  'owner:changed': z.object({ unlocked: z.boolean(), until: z.string().nullable() }),
  /** Someone signed in, locked the till, signed out, or the idle time ran out. */
  'session:changed': z.object({ signedIn: personSchema.nullable(), reason: z.enum(['sign-in', 'lock', 'sign-out', 'idle']) }),
  /** An owner's alert was raised or acknowledged: owner screens read `alerts:list` again. */
  'alerts:changed': z.object({ open: z.number().int() }),
} as const;
export type IpcEvents = typeof ipcEvents;
export type IpcEvent = keyof IpcEvents;
export type IpcEventPayload<E extends IpcEvent> = z.infer<IpcEvents[E]>;
export const IPC_EVENTS: readonly IpcEvent[] = IPC_EVENT_NAMES;

// Compile-time proof that the zod-free name lists (used by the preload) and the contract agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const channelsAgree: Same<IpcChannel, IpcChannelName> = true;
const eventsAgree: Same<IpcEvent, IpcEventName> = true;
void channelsAgree;
void eventsAgree;

/** What the preload puts on `window.momo` (and the browser-test bridge imitates). */
export type MomoApi = {
  invoke<C extends IpcChannel>(channel: C, payload: IpcRequest<C>): Promise<IpcResponse<C>>;
  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
};

/** A handler failure crosses IPC as this shape, never as a stack trace. */
export const ipcErrorSchema = z.object({ code: z.string(), message: z.string() });
export type IpcErrorShape = z.infer<typeof ipcErrorSchema>;
