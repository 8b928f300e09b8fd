/** Settling a payment by hand (spread into `ipcContract`): `payments:settle`, managers and the owner. */
import { z } from 'zod';
import { HAND_OUTCOMES } from '../domain.js';
import { paymentViewSchema } from './payment-contract.js';

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
} as const;
