/**
 * The one IPC contract between the renderer and the till core.
 *
 * Every call is `domain:verb` with a zod request and response schema. The main process registers a
 * handler for each channel in a loop (validating the request and the sender), the preload exposes
 * only `invoke(channel, payload)` for these channels and `on(event, cb)` for the events below, and
 * the browser-test bridge forwards the same calls to the same core. The list is written once, here.
 */
import { z } from 'zod';
import { environmentSchema, paymentStateSchema } from '../domain-schemas.js';
import { AMOUNT_ENTRIES } from '../money.js';
import { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES, type IpcChannelName, type IpcEventName } from './channels.js';
import { receiptChannels } from './receipt-contract.js';
import { printerKindSchema, receiptSettingsSchema } from '../receipt/receipt-settings.js';
import { CALLERS, STAFF_ROLES } from './roles.js';

export const relayStateSchema = z.enum(['connected', 'reconnecting', 'offline']);
export type RelayState = z.infer<typeof relayStateSchema>;

const wireAmount = z.string().regex(/^(0|[1-9][0-9]{0,9})\.[0-9]{2}$/, 'Amount looks like "12.50"');
/** A real calendar date (2026-02-30 and 2026-13-01 are refused, not read as March or as an error deep in the core). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date looks like 2026-11-21')
  .refine((s) => {
    const ms = Date.parse(`${s}T00:00:00Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === s;
  }, 'Date must be a real calendar date, such as 2026-11-21');

export const paymentViewSchema = z.object({
  id: z.string(),
  merchantRef: z.string(),
  environment: environmentSchema,
  state: paymentStateSchema,
  amount: wireAmount,
  fee: wireAmount.nullable(),
  net: wireAmount.nullable(),
  currency: z.literal('GHS'),
  msisdn: z.string(),
  network: z.string(),
  /** Customer's name from account resolution, shown locally only, never sent anywhere. */
  customerName: z.string().nullable(),
  description: z.string(),
  reference: z.string().nullable(),
  tillId: z.string(),
  /** A message a cashier can act on when rejected / uncertain. */
  errorMessage: z.string().nullable(),
  /** The cashier stopped waiting; the payment still resolves later. */
  stoppedWaiting: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  /** History only: no result after the overdue limit (15 min); its webhook most likely failed every attempt. */
  overdue: z.literal(true).optional(),
});
export type PaymentView = z.infer<typeof paymentViewSchema>;

export const environmentSettingsViewSchema = z.object({
  baseUrl: z.string(),
  merchantId: z.string(),
  publicKeyId: z.string(),
  /** `sk_live_••••abcd` or null: the secret itself never reaches the renderer. */
  secretKeyMasked: z.string().nullable(),
  relayUrl: z.string(),
  relayTokenSet: z.boolean(),
  callbackUrl: z.string(),
  complete: z.boolean(),
  /** True while this environment runs on the simulator and relay the app started itself. */
  embedded: z.boolean(),
});
export type EnvironmentSettingsView = z.infer<typeof environmentSettingsViewSchema>;

export const environmentSettingsInputSchema = z.object({
  baseUrl: z.string().max(2048),
  merchantId: z.string().max(64),
  publicKeyId: z.string().max(128),
  /** Omitted or empty: keep the stored secret. */
  secretKey: z.string().max(256).optional(),
  relayUrl: z.string().max(2048),
  /** Omitted or empty: keep the stored token. */
  relayToken: z.string().max(256).optional(),
});
export type EnvironmentSettingsInput = z.infer<typeof environmentSettingsInputSchema>;

/** How the Charge screen reads an amount, and which amounts it asks the cashier to confirm first. */
export const counterSettingsSchema = z.object({
  amountEntry: z.enum(AMOUNT_ENTRIES),
  /** Below this a charge asks for confirmation (a price typed pesewas-first by habit). */
  minimum: wireAmount,
  /** Above this a charge asks for confirmation (an extra zero). */
  confirmAbove: wireAmount,
});
export type CounterSettings = z.infer<typeof counterSettingsSchema>;

/** The core checks a new PIN's digits itself (too short, all one digit, taken) and says which. */
const pinSchema = z.string().max(16);

export const staffRoleSchema = z.enum(STAFF_ROLES);
export const personSchema = z.object({ id: z.string(), name: z.string(), role: staffRoleSchema });
export type PersonView = z.infer<typeof personSchema>;
export const staffMemberSchema = personSchema.extend({ active: z.boolean(), lockedForSeconds: z.number().int() });
export type StaffMember = z.infer<typeof staffMemberSchema>;
const staffNameSchema = z.string().trim().min(1, 'Enter a name').max(40, 'A name is at most 40 characters');

export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_out',
  'lock',
  'pin_failed',
  'pin_lockout',
  'pin_refused',
  'owner_pin_set',
  'staff_added',
  'staff_changed',
  'shift_open',
  'shift_close',
  'day_close',
  'settle_by_hand',
  'environment',
  'settings_changed',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  action: auditActionSchema,
  detail: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
const auditQuerySchema = z
  .object({
    action: auditActionSchema.optional(),
    actorId: z.string().max(64).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .strict();

export const takingsTotalsSchema = z.object({
  count: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  gross: wireAmount,
  fees: wireAmount,
  net: wireAmount,
});
export type TakingsTotals = z.infer<typeof takingsTotalsSchema>;

/**
 * This till's payments in the environment that have no final state yet, whatever their date: they are
 * in none of the totals until their result arrives. `overdue`: waiting longer than any result can take
 * to arrive (the prompt plus the service's whole webhook schedule), so their webhook most likely failed.
 */
export const takingsAwaitingSchema = z.object({
  count: z.number().int(),
  amount: wireAmount,
  overdue: z.number().int(),
  overdueAfterMinutes: z.number().int(),
});
export type TakingsAwaiting = z.infer<typeof takingsAwaitingSchema>;

export const takingsReportSchema = z.object({
  environment: environmentSchema,
  from: isoDate,
  to: isoDate,
  timeZone: z.string(),
  totals: takingsTotalsSchema,
  byNetwork: z.array(takingsTotalsSchema.extend({ network: z.string() })),
  byTill: z.array(takingsTotalsSchema.extend({ tillId: z.string() })),
  byDay: z.array(takingsTotalsSchema.extend({ date: isoDate })),
  awaiting: takingsAwaitingSchema,
});
export type TakingsReport = z.infer<typeof takingsReportSchema>;

const ok = z.object({ ok: z.literal(true) });

/** Calls: request and response schema for each channel. */
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
  'session:people': {
    request: z.object({}).strict(),
    response: z.object({ people: z.array(personSchema) }),
  },
  'session:signIn': {
    request: z.object({ pin: z.string().max(16), staffId: z.string().max(64).optional() }).strict(),
    response: z.object({ person: personSchema }),
  },
  'session:lock': { request: z.object({}).strict(), response: ok },
  'session:signOut': { request: z.object({}).strict(), response: ok },
  'session:touch': { request: z.object({}).strict(), response: ok },
  'staff:list': {
    request: z.object({}).strict(),
    response: z.object({ staff: z.array(staffMemberSchema), ownerSet: z.boolean() }),
  },
  'staff:add': {
    request: z.object({ name: staffNameSchema, role: z.enum(['manager', 'cashier']), pin: pinSchema }).strict(),
    response: staffMemberSchema,
  },
  'staff:update': {
    request: z
      .object({
        id: z.string().max(64),
        name: staffNameSchema,
        role: staffRoleSchema,
        active: z.boolean(),
        /** Omitted or empty: keep the PIN. */
        pin: pinSchema.optional(),
      })
      .strict(),
    response: staffMemberSchema,
  },
  'audit:list': { request: auditQuerySchema, response: z.object({ entries: z.array(auditEntrySchema) }) },
  'audit:exportCsv': { request: auditQuerySchema, response: z.object({ filename: z.string(), csv: z.string() }) },
  'owner:setPin': {
    request: z.object({ pin: pinSchema, currentPin: pinSchema.optional() }).strict(),
    response: ok,
  },
  'owner:unlock': {
    request: z.object({ pin: z.string().max(16) }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string().optional() }),
  },
  'owner:lock': { request: z.object({}).strict(), response: ok },
  'settings:get': {
    request: z.object({}).strict(),
    response: z.object({
      active: environmentSchema,
      tillName: z.string(),
      timeZone: z.string(),
      test: environmentSettingsViewSchema,
      live: environmentSettingsViewSchema,
      receipt: receiptSettingsSchema,
    }),
  },
  'settings:save': {
    request: z.object({ environment: environmentSchema, values: environmentSettingsInputSchema }).strict(),
    response: environmentSettingsViewSchema,
  },
  'settings:saveTill': {
    request: z
      .object({
        tillName: z.string().min(1).max(40),
        timeZone: z.string().max(64),
        /** How long the till stays signed in without use (omitted: unchanged). */
        idleLockMinutes: z.number().int().min(1, 'At least 1 minute').max(240, 'At most 240 minutes').optional(),
      })
      .strict(),
    response: ok,
  },
  'settings:saveCounter': {
    request: counterSettingsSchema.strict(),
    response: ok,
  },
  'settings:testConnection': {
    request: z.object({ environment: environmentSchema }).strict(),
    response: z.object({
      result: z.enum(['ok', 'unauthorized', 'unreachable', 'error']),
      message: z.string(),
    }),
  },
  'settings:setEnvironment': {
    request: z.object({ environment: environmentSchema, pin: z.string().max(16) }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string().optional() }),
  },
  'payments:resolveAccount': {
    request: z.object({ msisdn: z.string().max(32), network: z.string().max(16) }).strict(),
    /** noAccount: the service said this number has no wallet (a charge then needs an explicit "charge anyway"). */
    response: z.object({ name: z.string().nullable(), message: z.string().optional(), noAccount: z.literal(true).optional() }),
  },
  'payments:charge': {
    request: z
      .object({
        /** Generated by the screen once per sale: a second click or window with it gets the same payment. */
        requestId: z.string().min(8).max(64),
        amount: z.string().max(16),
        msisdn: z.string().max(32),
        network: z.string().max(16),
        description: z.string().max(140).optional(),
        customerName: z.string().max(120).nullable().optional(),
      })
      .strict(),
    response: z.union([
      z.object({ ok: z.literal(true), payment: paymentViewSchema }),
      z.object({ ok: z.literal(false), field: z.string().optional(), message: z.string() }),
    ]),
  },
  'payments:get': {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: paymentViewSchema.nullable(),
  },
  'payments:stopWaiting': {
    request: z.object({ id: z.string().max(64) }).strict(),
    response: paymentViewSchema.nullable(),
  },
  /** This till's payments in the active environment that have no final state yet (newest first). */
  'payments:pending': {
    request: z.object({}).strict(),
    response: z.object({ items: z.array(paymentViewSchema) }),
  },
  'history:search': {
    request: z
      .object({
        query: z.string().max(64).optional(),
        date: isoDate.optional(),
        page: z.number().int().min(0).max(100_000).default(0),
        pageSize: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    response: z.object({ items: z.array(paymentViewSchema), total: z.number().int(), page: z.number().int() }),
  },
  'takings:report': {
    request: z.object({ from: isoDate, to: isoDate }).strict(),
    response: takingsReportSchema,
  },
  'takings:exportCsv': {
    request: z.object({ from: isoDate, to: isoDate }).strict(),
    response: z.object({ filename: z.string(), csv: z.string() }),
  },
  ...receiptChannels,
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
