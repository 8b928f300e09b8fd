/** Settling a payment by hand and the owner's alerts (spread into `ipcContract`): `payments:settle`, `alerts:*`. */
import { z } from 'zod';
import { HAND_OUTCOMES } from '../domain.js';
import { environmentSchema } from '../domain-schemas.js';
import { paymentViewSchema } from './payment-contract.js';

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

export const settleChannels = {
  /**
   * Record the outcome a manager verified on the service's dashboard for an overdue payment of this till.
   * The rules (reference shape, fee, note 1–200 characters once trimmed) are checked by the core, which
   * answers which field is wrong; nothing changes on a refusal.
   */
  'payments:settle': {
    request: z
      .object({
        id: z.string().max(64),
        outcome: z.enum(HAND_OUTCOMES),
        reference: z.string().max(256).optional(),
        fee: z.string().max(16).optional(),
        note: z.string().max(2000),
      })
      .strict(),
    response: z.union([
      z.object({ ok: z.literal(true), payment: paymentViewSchema }),
      z.object({ ok: z.literal(false), field: z.enum(['reference', 'fee', 'note']).optional(), message: z.string() }),
    ]),
  },
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
