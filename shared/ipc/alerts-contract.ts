/** The owner's alerts (spread into `ipcContract`): `alerts:*`, the owner only; the core pushes `alerts:changed`. */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';

/** Something the owner must see until they acknowledge it: a settle by hand the service's own result overrode. */
export const alertViewSchema = z.object({
  id: z.number().int(),
  kind: z.literal('hand_settlement_overridden'),
  paymentId: z.string(),
  environment: environmentSchema,
  message: z.string(),
  raisedAt: z.string(),
  /** When and by whom (null: still open). */
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type AlertView = z.infer<typeof alertViewSchema>;

export const alertsChannels = {
  /** Open alerts (newest first), or with `all` the latest 200 including acknowledged ones. */
  'alerts:list': {
    request: z.object({ all: z.boolean().optional() }).strict(),
    response: z.object({ items: z.array(alertViewSchema) }),
  },
  'alerts:acknowledge': {
    request: z.object({ id: z.number().int().positive() }).strict(),
    response: alertViewSchema,
  },
} as const;
