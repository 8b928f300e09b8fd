/**
 * The owner's page's data, read from the store's hourly summary (never by reading every event) and
 * folded into the shop's local days: a day's figures by till, cashier and network, the last 30 days,
 * and the latest payments as the phone may show them (masked number, neutralised description,
 * integer pesewas).
 */
import { NAME_FORBIDDEN_CHARACTERS } from '../../../shared/characters.js';
import type { Environment } from '../../../shared/domain.js';
import { localDate } from '../../../shared/local-date.js';
import { tryParseAmount } from '../../../shared/money.js';
import {
  addOwnerSums,
  zeroOwnerSums,
  type EventRow,
  type OwnerBreakdownRow,
  type OwnerSums,
  type OwnerViewStore,
} from '../../store/index.js';

const HOUR_MS = 3_600_000;

/** The local date of an hour: a pure function of (hour, zone), remembered (Intl formatting is the slow part of a 30-day read). */
const hourDates = new Map<string, string>();
function hourDate(hour: number, timeZone: string): string {
  const key = `${hour} ${timeZone}`;
  let date = hourDates.get(key);
  if (date === undefined) {
    if (hourDates.size > 200_000) hourDates.clear();
    date = localDate(hour * HOUR_MS, timeZone);
    hourDates.set(key, date);
  }
  return date;
}

/** The UTC hours [from, to) that make up local date `date` in `timeZone` (exact for whole-hour offsets). */
export function dayHours(date: string, timeZone: string): { from: number; to: number } {
  const guess = Math.floor(Date.parse(`${date}T00:00:00Z`) / HOUR_MS);
  let from = guess - 15;
  while (from < guess + 15 && hourDate(from, timeZone) < date) from++;
  let to = from;
  while (to < from + 27 && hourDate(to, timeZone) === date) to++;
  return { from, to };
}

/** The date `days` before `date` (both YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export type Figures = OwnerSums & { count: number; successRate: number | null };

export function figuresOf(s: OwnerSums): Figures {
  const count = s.succeeded + s.failed;
  return { ...s, count, successRate: count === 0 ? null : Math.round((s.succeeded / count) * 1000) / 10 };
}

type Group = Figures & { key: string; name: string };

function groupBy(rows: OwnerBreakdownRow[], keyOf: (r: OwnerBreakdownRow) => [string, string]): Group[] {
  const map = new Map<string, { name: string; sums: OwnerSums }>();
  for (const r of rows) {
    const [key, name] = keyOf(r);
    let g = map.get(key);
    if (!g) map.set(key, (g = { name, sums: zeroOwnerSums() }));
    if (name && !g.name) g.name = name;
    addOwnerSums(g.sums, r);
  }
  return [...map.entries()].map(([key, g]) => ({ key, name: g.name, ...figuresOf(g.sums) })).sort((a, b) => b.gross - a.gross);
}

export type DayFigures = { date: string; timeZone: string; totals: Figures; byTill: Group[]; byCashier: Group[]; byNetwork: Group[] };

/** One local day's figures, from the summary rows of its 24 (23, 25) hours. */
export async function dayFigures(
  store: OwnerViewStore,
  merchantId: string,
  environment: Environment,
  date: string,
  timeZone: string,
): Promise<DayFigures> {
  const { from, to } = dayHours(date, timeZone);
  const rows = await store.breakdown(merchantId, environment, from, to);
  const totals = zeroOwnerSums();
  for (const r of rows) addOwnerSums(totals, r);
  return {
    date,
    timeZone,
    totals: figuresOf(totals),
    byTill: groupBy(rows, (r) => [r.tillId, r.tillName]),
    byCashier: groupBy(rows, (r) => [r.cashierId, r.cashierName]),
    byNetwork: groupBy(rows, (r) => [r.network, r.network]),
  };
}

/** The `count` local days ending with `lastDate`, oldest first, each with its figures (empty days too). */
export async function daysFigures(
  store: OwnerViewStore,
  merchantId: string,
  environment: Environment,
  lastDate: string,
  timeZone: string,
  count = 30,
): Promise<Array<Figures & { date: string }>> {
  const firstDate = addDays(lastDate, -(count - 1));
  const from = dayHours(firstDate, timeZone).from;
  const to = dayHours(lastDate, timeZone).to;
  const byDate = new Map<string, OwnerSums>();
  for (let i = 0; i < count; i++) byDate.set(addDays(firstDate, i), zeroOwnerSums());
  for (const row of await store.hourly(merchantId, environment, from, to)) {
    const sums = byDate.get(hourDate(row.hour, timeZone));
    if (sums) addOwnerSums(sums, row);
  }
  return [...byDate.entries()].map(([date, s]) => ({ date, ...figuresOf(s) }));
}

/** Every character a name may not hold (shared/characters.ts), which the stores refuse in owner texts. */
const NAME_FORBIDDEN = new RegExp(NAME_FORBIDDEN_CHARACTERS.source, 'gu');

/**
 * Control characters (NUL among them), bidirectional overrides, zero-width marks and every other character a
 * name may not hold out; an unpaired surrogate
 * becomes U+FFFD (no store keeps one as sent: what is answered must be what is stored); whitespace collapsed; bounded.
 */
export function neutralise(text: unknown, max: number): string {
  if (typeof text !== 'string') return '';
  const cleaned = text
    .replace(/\p{Cs}/gu, '\ufffd')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(NAME_FORBIDDEN, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...cleaned];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : cleaned;
}

/** 233241234567 -> "024 *** 4567"; anything else shows as "***". */
export function maskMsisdn(msisdn: unknown): string {
  if (typeof msisdn !== 'string' || !/^233[0-9]{9}$/.test(msisdn)) return '***';
  return `0${msisdn.slice(3, 5)} *** ${msisdn.slice(8)}`;
}

/** A payment as the phone shows it: nothing it does not need (no reference, no full number). */
export type OwnerPayment = {
  seq: number;
  completedAt: string;
  status: string;
  amount: number;
  fee: number;
  net: number;
  till: string;
  cashier: string;
  network: string;
  number: string;
  description: string;
};

const pesewas = (v: unknown) => {
  const p = tryParseAmount(v, { allowZero: true });
  return p.ok ? p.pesewas : 0;
};

export function ownerPayment(row: EventRow): OwnerPayment {
  const tx = JSON.parse(row.transaction_json) as Record<string, unknown>;
  const meta = (tx.metadata && typeof tx.metadata === 'object' ? tx.metadata : {}) as Record<string, unknown>;
  const customer = (tx.customer && typeof tx.customer === 'object' ? tx.customer : {}) as Record<string, unknown>;
  const ok = tx.status === 'SUCCESS';
  return {
    seq: row.seq,
    completedAt: typeof tx.completedAt === 'string' ? tx.completedAt : row.received_at,
    status: tx.status === 'SUCCESS' || tx.status === 'FAILED' ? tx.status : 'UNKNOWN',
    amount: pesewas(tx.amount),
    fee: ok ? pesewas(tx.fee) : 0,
    net: ok ? pesewas(tx.net) : 0,
    till: neutralise(meta.tillName ?? meta.till, 40),
    cashier: neutralise(meta.cashier, 40),
    network: neutralise(customer.network, 32),
    number: maskMsisdn(customer.msisdn),
    description: neutralise(tx.description, 140),
  };
}
