/** The app's own updates (spread into `ipcContract`): `updates:*`, the owner only (electron/core/updates). */
import { z } from 'zod';

export const updateStatusSchema = z.object({
  /** The version running now. */
  version: z.string(),
  phase: z.enum(['off', 'idle', 'checking', 'downloading', 'ready', 'failed']),
  /** The version found on the update feed (downloading or ready). */
  available: z.string().nullable(),
  percent: z.number().int().min(0).max(100).nullable(),
  message: z.string(),
});
export type UpdateStatusView = z.infer<typeof updateStatusSchema>;

export const updatesChannels = {
  'updates:status': {
    request: z.object({}).strict(),
    response: updateStatusSchema,
  },
  /** Restart into a downloaded update; refused while a payment waits for its result. */
  'updates:restart': {
    request: z.object({}).strict(),
    response: z.discriminatedUnion('restarting', [
      z.object({ restarting: z.literal(true) }),
      z.object({ restarting: z.literal(false), reason: z.enum(['no-update-ready', 'payment-waiting']) }),
    ]),
  },
} as const;
