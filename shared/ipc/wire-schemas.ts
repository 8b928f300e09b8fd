/** Schemas every part of the IPC contract shares: amounts and dates as they cross IPC, and the bare `ok` answer. */
import { z } from 'zod';

export const wireAmount = z.string().regex(/^(0|[1-9][0-9]{0,9})\.[0-9]{2}$/, 'Amount looks like "12.50"');
/** A real calendar date (2026-02-30 and 2026-13-01 are refused, not read as March or as an error deep in the core). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date looks like 2026-11-21')
  .refine((s) => {
    const ms = Date.parse(`${s}T00:00:00Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === s;
  }, 'Date must be a real calendar date, such as 2026-11-21');

export const ok = z.object({ ok: z.literal(true) });

/** One person's payments only (a staff id as payments record it); null: those started with nobody signed in; omitted: everyone's. */
export const cashierFilterSchema = z.string().max(64).nullable().optional();
