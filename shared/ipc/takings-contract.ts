/** The takings part of the IPC contract (spread into `ipcContract`): the report and its CSV export. */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';
import { cashierFilterSchema, isoDate, wireAmount } from './wire-schemas.js';

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

/** How many payments, and their amount (summed in pesewas by the core). */
export const countAmountSchema = z.object({ count: z.number().int().nonnegative(), amount: wireAmount });

/**
 * This till's payments that ended before the service acknowledged them (their deadline passed, or the cashier
 * said stop), by the day they ended: neither paid nor failed, so in none of the totals. `notSent`: no prompt
 * went out. `unconfirmed`: an attempt may have reached the service; its result still lands if it did.
 */
export const unsentTotalsSchema = z.object({ notSent: countAmountSchema, unconfirmed: countAmountSchema });
export type UnsentTotals = z.infer<typeof unsentTotalsSchema>;
export const NO_UNSENT: UnsentTotals = { notSent: { count: 0, amount: '0.00' }, unconfirmed: { count: 0, amount: '0.00' } };

export const takingsReportSchema = z.object({
  environment: environmentSchema,
  from: isoDate,
  to: isoDate,
  timeZone: z.string(),
  totals: takingsTotalsSchema,
  byNetwork: z.array(takingsTotalsSchema.extend({ network: z.string() })),
  /** tillName: the name the till's latest result carried in its metadata (null: none did, e.g. an older till). */
  byTill: z.array(takingsTotalsSchema.extend({ tillId: z.string(), tillName: z.string().nullable() })),
  /** Who started each payment (payments.staff_*, echoed in metadata); null: nobody signed in (no staff). */
  byCashier: z.array(takingsTotalsSchema.extend({ cashierId: z.string().nullable(), cashier: z.string().nullable() })),
  byDay: z.array(takingsTotalsSchema.extend({ date: isoDate })),
  /** The part of the totals settled by hand that the service has not corrected. */
  byHand: takingsTotalsSchema,
  awaiting: takingsAwaitingSchema,
  unsent: unsentTotalsSchema,
});
export type TakingsReport = z.infer<typeof takingsReportSchema>;

const rangeRequest = z.object({ from: isoDate, to: isoDate, cashierId: cashierFilterSchema }).strict();

export const takingsChannels = {
  /** With cashierId, the figures (totals, by network, till and day, settled by hand, awaiting) are that person's; byCashier stays everyone's. */
  'takings:report': {
    request: rangeRequest,
    response: takingsReportSchema,
  },
  /** With cashierId, that person's rows only. */
  'takings:exportCsv': {
    request: rangeRequest,
    response: z.object({ filename: z.string(), csv: z.string() }),
  },
} as const;
