/** The settings part of the IPC contract (spread into `ipcContract`): environments, the till, the counter. */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';
import { AMOUNT_ENTRIES } from '../money.js';
import { receiptSettingsSchema } from '../receipt/receipt-settings.js';
import { ok, wireAmount } from './wire-schemas.js';

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

/** The settings an environment needs before it can take payments (the core's own completeness check reads this list). */
export const ENVIRONMENT_SETTINGS = ['baseUrl', 'merchantId', 'publicKeyId', 'secretKey', 'relayUrl', 'relayToken'] as const;
export type EnvironmentSetting = (typeof ENVIRONMENT_SETTINGS)[number];

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

export const settingsChannels = {
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
  /** What LIVE still lacks, in the form's order: the same check that refuses the switch (empty: LIVE may be switched on). */
  'settings:liveMissing': {
    request: z.object({}).strict(),
    response: z.object({ missing: z.array(z.enum(ENVIRONMENT_SETTINGS)) }),
  },
  'settings:setEnvironment': {
    request: z.object({ environment: environmentSchema, pin: z.string().max(16) }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string().optional() }),
  },
} as const;
