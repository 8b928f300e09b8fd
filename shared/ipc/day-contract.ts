/**
 * The day's close part of the IPC contract (spread into `ipcContract`): the X report (the day so far,
 * closes nothing), closing the day into a numbered Z report (an immutable snapshot), the list of past
 * Z reports, one Z with what happened since its close, its CSV, and printing either.
 */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';
import { NO_UNSENT, takingsTotalsSchema, unsentTotalsSchema } from './takings-contract.js';
import { printResultSchema } from './receipt-contract.js';
import { wireAmount } from './wire-schemas.js';
import { formatAmount, formatGhs, parseAmount, parseSignedAmount } from '../money.js';

const iso = z.string();
/** A day report's money may be negative: a correction takes figures back out. */
const signedAmount = z.string().regex(/^-?(0|[1-9][0-9]{0,9})\.[0-9]{2}$/, 'Amount looks like "12.50" or "-12.50"');
const dayTotalsSchema = takingsTotalsSchema.extend({ gross: signedAmount, fees: signedAmount, net: signedAmount });

/** A final transaction named in a report: when, whose number (as people write it), how much, where and by whom. */
const reportLineSchema = z.object({
  reference: z.string(),
  merchantRef: z.string().nullable(),
  completedAt: iso,
  /** When this till started it (null: another till's payment, whose start this till does not know). */
  startedAt: iso.nullable(),
  msisdn: z.string(),
  status: z.enum(['SUCCESS', 'FAILED']),
  amount: wireAmount,
  till: z.string(),
  cashier: z.string().nullable(),
  /** Why it failed, when this till knows it (the service's result does not say; a hand settlement's note does). */
  reason: z.string().nullable(),
  /** Recorded by hand (settle by hand), not yet replaced by the service's own result. */
  settledByHand: z.boolean().default(false),
});
export type DayReportLine = z.infer<typeof reportLineSchema>;

/** A result counted in this report for a payment started before the previous Z's close. */
const lateLineSchema = reportLineSchema.extend({ closedDay: z.string().nullable() });

/** This till's payment still without a result at the report's time, and what to do about it. */
const awaitingLineSchema = z.object({
  paymentId: z.string(),
  merchantRef: z.string(),
  startedAt: iso,
  msisdn: z.string(),
  amount: wireAmount,
  network: z.string(),
  cashier: z.string().nullable(),
  status: z.enum(['pending', 'overdue']),
  whatToDo: z.string(),
});
export type DayAwaitingLine = z.infer<typeof awaitingLineSchema>;

/**
 * This till's payment that ended before the service acknowledged it (its deadline passed, or the cashier said
 * stop): in no total, neither paid nor failed. not_sent: no prompt went out; unconfirmed: it may have reached the
 * service, whose result still lands (and is counted) if it did.
 */
const unsentLineSchema = z.object({
  merchantRef: z.string(),
  startedAt: iso,
  endedAt: iso,
  msisdn: z.string(),
  amount: wireAmount,
  network: z.string(),
  cashier: z.string().nullable(),
  state: z.enum(['not_sent', 'unconfirmed']),
});
export type DayUnsentLine = z.infer<typeof unsentLineSchema>;

/**
 * A payment settled by hand and counted so in an earlier Z, whose late result from the service disagreed:
 * the service's result is counted in this report, and this line takes the hand figures back out.
 */
const correctionLineSchema = z.object({
  merchantRef: z.string(),
  msisdn: z.string(),
  amount: wireAmount,
  /** What was recorded by hand, and in which Z it was counted. */
  hand: z.enum(['PAID', 'NOT PAID']),
  handBy: z.string().nullable(),
  countedIn: z.string().nullable(),
  /** What the service said later. */
  service: z.enum(['SUCCESS', 'FAILED']),
  /** What this line takes out of the totals (negative, or zero for a failed count). */
  gross: signedAmount,
  fees: signedAmount,
  net: signedAmount,
});
export type DayCorrectionLine = z.infer<typeof correctionLineSchema>;

/** A Z this till closed earlier on the same local day. */
export const earlierCloseSchema = z.object({ label: z.string(), at: iso, closedBy: z.string().nullable() });
export type EarlierClose = z.infer<typeof earlierCloseSchema>;

export const dayReportSchema = z.object({
  environment: environmentSchema,
  /** "Z-0001" for a closed day, "X" for the day so far. */
  label: z.string(),
  kind: z.enum(['x', 'z']),
  number: z.number().int().nullable(),
  /** The previous Z's close, or the first transaction counted (null: nothing counted yet). */
  openedAt: iso.nullable(),
  /** The close (a Z) or the instant of the read (an X). */
  at: iso,
  closedBy: z.string().nullable(),
  timeZone: z.string(),
  totals: dayTotalsSchema,
  byCashier: z.array(dayTotalsSchema.extend({ cashierId: z.string().nullable(), cashier: z.string().nullable() })),
  byTill: z.array(dayTotalsSchema.extend({ tillId: z.string(), tillName: z.string().nullable() })),
  byNetwork: z.array(dayTotalsSchema.extend({ network: z.string() })),
  /** How many of the transactions counted were recorded by hand (settle by hand). */
  settledByHand: z.number().int().default(0),
  /** The latest failures (at most FAILURES_LISTED, oldest first); every one is in the Z's CSV. */
  failures: z.array(reportLineSchema),
  /** How many failures there are in all (absent in Zs made before the list was bounded: all were listed). */
  failuresCount: z.number().int().nonnegative().optional(),
  arrivedAfterClose: z.array(lateLineSchema),
  corrections: z.array(correctionLineSchema).default([]),
  awaiting: z.array(awaitingLineSchema),
  /**
   * This till's payments that ended without the service's acknowledgement since the previous close (the latest
   * FAILURES_LISTED listed), counted apart from every total (absent in Zs made before they were: none then).
   */
  unsent: unsentTotalsSchema.default(NO_UNSENT),
  unsentLines: z.array(unsentLineSchema).default([]),
  /**
   * Every till receives every result of the shop, so a report sums the shop's results as this till received
   * them: the till it was made at (absent in Zs made before reports said so: the till's name then comes from Settings).
   */
  receivedBy: z.object({ tillId: z.string(), tillName: z.string() }).optional(),
  /** The shop's other tills this till has had results from: each may close a Z of the same results. */
  otherTills: z.array(z.string()).default([]),
  /** The previous Z, when this till closed it earlier the same local day. */
  earlierToday: earlierCloseSchema.nullable().default(null),
});
export type DayReport = z.infer<typeof dayReportSchema>;

/** Whose figures a report's are, on screen, on paper and in the CSV alike. */
export const reportScopeOf = (report: Pick<DayReport, 'receivedBy'>, tillName: string): string =>
  `Shop total, as received by ${report.receivedBy?.tillName || tillName} — not to be added to other tills' Zs`;

/**
 * What a close should know before it is made (the X report) and what a Z says it was made after: a Z of the
 * same local day at this till, and the other tills whose own Zs count the same results. A till cannot know
 * whether another till has closed (no till tells another, nor the relay, of its Zs): it warns whenever there is one.
 */
export function closeWarningsOf(report: Pick<DayReport, 'earlierToday' | 'otherTills' | 'kind'>, time: (iso: string) => string): string[] {
  const out: string[] = [];
  const e = report.earlierToday;
  if (e) {
    const made = report.kind === 'z' ? 'this Z counts' : 'closing now counts';
    out.push(
      `${e.label} was already closed at this till today, ${time(e.at)}${e.closedBy ? ` by ${e.closedBy}` : ''}: ${made} only what arrived since.`,
    );
  }
  if (report.otherTills.length) {
    out.push(
      `${report.otherTills.join(', ')} also ${report.otherTills.length === 1 ? 'receives' : 'receive'} these results: a Z closed there counts the same payments. Take the shop's day from one till's Z, never the sum.`,
    );
  }
  return out;
}

/** One statement of a report's corrections: who changed how, since which Z, and what it did to the money. */
export type CorrectedSince = {
  /** The change without its money ("Corrected since Z-0001: 1 payment PAID → FAILED"). */
  name: string;
  count: number;
  /** The change in gross (a result that changed) or in net (a fee that changed), signed, as on the wire. */
  gross: string | null;
  net: string | null;
  /** The whole sentence, as the screen and the paper say it. */
  text: string;
};

/**
 * The report's corrections said as a shop owner reads them, one sentence per earlier Z and kind of change:
 * "Corrected since Z-0001: 1 payment PAID → FAILED, −GH₵12.50". The counts above never go below zero
 * (a correction moves money, not counts): this is where the change is stated.
 */
export function correctedSinceOf(report: Pick<DayReport, 'corrections'>): CorrectedSince[] {
  type Group = { since: string; change: 'PAID → FAILED' | 'FAILED → PAID' | 'fee'; count: number; pesewas: number };
  const groups = new Map<string, Group>();
  for (const c of report.corrections) {
    const paidBefore = c.hand === 'PAID';
    const paidNow = c.service === 'SUCCESS';
    const change = paidBefore === paidNow ? 'fee' : paidBefore ? 'PAID → FAILED' : 'FAILED → PAID';
    const amount = parseAmount(c.amount);
    const pesewas = change === 'fee' ? parseSignedAmount(c.net) : paidBefore ? 0 - amount : amount;
    const since = c.countedIn ?? 'an earlier Z';
    const key = `${since}\u0000${change}`;
    const group = groups.get(key) ?? { since, change, count: 0, pesewas: 0 };
    groups.set(key, { ...group, count: group.count + 1, pesewas: group.pesewas + pesewas });
  }
  return [...groups.values()].map((g) => {
    const payments = `${g.count} payment${g.count === 1 ? '' : 's'}`;
    const fee = g.change === 'fee';
    const name = fee ? `Corrected since ${g.since}: the fee of ${payments}` : `Corrected since ${g.since}: ${payments} ${g.change}`;
    const money = `${g.pesewas < 0 ? '−' : '+'}${formatGhs(Math.abs(g.pesewas))}${fee ? ' net' : ''}`;
    const figure = formatAmount(g.pesewas);
    return { name, count: g.count, gross: fee ? null : figure, net: fee ? figure : null, text: `${name}, ${money}` };
  });
}

/**
 * A report lists this many failures at most, the latest ones: a till left unclosed for months may hold
 * thousands, which no screen or paper roll should carry (and reading them all would keep the X report from
 * answering at once on a large till). The CSV of a Z has every row.
 */
export const FAILURES_LISTED = 100;

/** How a report names the two ways a payment ends without the service's acknowledgement (screen, paper, CSV alike). */
export const UNSENT_NAMES = {
  not_sent: 'Not sent: no prompt went out',
  unconfirmed: 'May have reached the service: counted when its result comes',
} as const;

/** How many failures a report counts in all (a Z made before the list was bounded listed every one). */
export const failuresCountOf = (report: Pick<DayReport, 'failures' | 'failuresCount'>): number =>
  report.failuresCount ?? report.failures.length;

/** Since a Z's close: a result for a payment of that day (listed awaiting, or started before the close). */
export const sinceCloseLineSchema = z.object({
  merchantRef: z.string().nullable(),
  msisdn: z.string(),
  amount: wireAmount,
  /** What the snapshot said of it: pending, overdue, or not listed (another till's, or not yet known here). */
  listedAs: z.enum(['pending', 'overdue', 'not listed']),
  /** Its result since: null while it still has none. */
  status: z.enum(['SUCCESS', 'FAILED']).nullable(),
  completedAt: iso.nullable(),
  settledByHand: z.boolean().default(false),
  /** The later Z that counted it ("Z-0002"), or null: it will be in the next Z. */
  countedIn: z.string().nullable(),
});
export type SinceCloseLine = z.infer<typeof sinceCloseLineSchema>;

export const zSummarySchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  label: z.string(),
  openedAt: iso.nullable(),
  closedAt: iso,
  closedBy: z.string().nullable(),
  totals: dayTotalsSchema,
});
export type ZSummary = z.infer<typeof zSummarySchema>;

const zId = z.number().int().positive();

export const dayChannels = {
  /** The day so far: every final transaction of the active environment in no Z yet. Stored nowhere. */
  'day:xReport': { request: z.object({}).strict(), response: dayReportSchema },
  /**
   * Closes the day. `lastNumber` is the latest Z the screen knows (0: none): if another close came first,
   * this one is refused instead of making a second report (a double click, a second window).
   */
  'day:close': {
    request: z.object({ lastNumber: z.number().int().nonnegative() }).strict(),
    response: z.object({ id: zId, report: dayReportSchema }),
  },
  'day:list': { request: z.object({}).strict(), response: z.object({ reports: z.array(zSummarySchema) }) },
  /** A closed Z as it was frozen, and what happened since to the payments of that day. */
  'day:get': {
    request: z.object({ id: zId }).strict(),
    response: z.object({ id: zId, report: dayReportSchema, sinceClose: z.array(sinceCloseLineSchema) }),
  },
  'day:exportCsv': { request: z.object({ id: zId }).strict(), response: z.object({ filename: z.string(), csv: z.string() }) },
  /** Prints the X report (no id) or a Z. */
  'day:print': { request: z.object({ id: zId.optional() }).strict(), response: printResultSchema },
} as const;
