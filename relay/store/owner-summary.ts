/**
 * The owner's hourly summary row of one delivery, worked out in Node from the transaction the receiver
 * has already parsed and validated, so that a commit only upserts numbers: reading the JSON again, the
 * regexes and the time parse would otherwise run inside the commit every delivery waits on. The rules,
 * the same as the SQL of rebuildOwnerSummary (store/sqlite/owner-view-sqlite.ts):
 * - the hour of `completedAt`, else of the relay's receipt, else of now (hours since the epoch, UTC);
 * - till, till name, cashier id and cashier name from the echoed metadata when they are text, cut to
 *   64/40/64/40 characters (outside text: bounded), else '';
 * - the network when it is text, cut to 32 characters;
 * - SUCCESS counts as succeeded with its amount, fee and net in pesewas; FAILED as failed; anything else
 *   adds nothing but its row.
 * Money is read from its exact two-decimal text, never through a float.
 */
export type OwnerSummaryRow = {
  hour: number;
  tillId: string;
  tillName: string;
  cashierId: string;
  cashierName: string;
  network: string;
  succeeded: number;
  failed: number;
  gross: number;
  fees: number;
  net: number;
};

const AMOUNT = /^[0-9]{1,13}\.[0-9]{2}$/;
const ISO_START = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T/;
const HAS_ZONE = /(Z|[+-][0-9]{2}(:?[0-9]{2})?)$/i;
const HOUR_MS = 3_600_000;

/** The first `max` characters (code points, as SQL's left() and substr() count them). */
function firstChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let n = 0;
  for (const ch of text) {
    if (n++ === max) break;
    out += ch;
  }
  return out;
}

const textOr = (value: unknown, max: number): string => (typeof value === 'string' ? firstChars(value, max) : '');

/** Integer pesewas of an exact "123.45" amount; 0 for anything else (as the SQL does). */
export function summaryPesewas(value: unknown): number {
  if (typeof value !== 'string' || !AMOUNT.test(value)) return 0;
  return Number(value.slice(0, -3)) * 100 + Number(value.slice(-2));
}

/** A time without a zone is UTC (as SQLite reads it), never this machine's local time: 'Z' is added. */
export function zoned(at: string): string {
  return HAS_ZONE.test(at) ? at : `${at}Z`;
}

function hourOf(completedAt: unknown, receivedAt: string, nowMs: number): number {
  for (const at of [completedAt, receivedAt]) {
    if (typeof at !== 'string' || !ISO_START.test(at)) continue;
    const ms = Date.parse(zoned(at));
    if (Number.isFinite(ms)) return Math.floor(ms / HOUR_MS);
  }
  return Math.floor(nowMs / HOUR_MS);
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The summary row of a transaction (the webhook's `data`), received at `receivedAt`. */
export function ownerSummaryRow(transaction: unknown, receivedAt: string, nowMs = Date.now()): OwnerSummaryRow {
  const tx = record(transaction);
  const meta = record(tx.metadata);
  const ok = tx.status === 'SUCCESS';
  return {
    hour: hourOf(tx.completedAt, receivedAt, nowMs),
    tillId: textOr(meta.till, 64),
    tillName: textOr(meta.tillName, 40),
    cashierId: textOr(meta.cashierId, 64),
    cashierName: textOr(meta.cashier, 40),
    network: textOr(record(tx.customer).network, 32),
    succeeded: ok ? 1 : 0,
    failed: tx.status === 'FAILED' ? 1 : 0,
    gross: ok ? summaryPesewas(tx.amount) : 0,
    fees: ok ? summaryPesewas(tx.fee) : 0,
    net: ok ? summaryPesewas(tx.net) : 0,
  };
}

/**
 * The delivery's summary row: the receiver's, else worked out from its JSON (deliveries made by tests and
 * tools). Null for JSON that does not parse, which the summary skips (as rebuildOwnerSummary's json_valid does).
 */
export function summaryOf(d: { summary?: OwnerSummaryRow; transactionJson: string; receivedAt: string }): OwnerSummaryRow | null {
  if (d.summary) return d.summary;
  let tx: unknown;
  try {
    tx = JSON.parse(d.transactionJson);
  } catch {
    return null;
  }
  return ownerSummaryRow(tx, d.receivedAt);
}
