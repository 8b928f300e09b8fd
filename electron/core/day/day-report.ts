/**
 * The X and Z reports' figures, computed from the final transactions they cover (the till's copy of the
 * merchant's results, all tills) and this till's payments still without a result. Pure: the caller sums the
 * rows in SQL (day-sums.ts) and reads only the few it lists; an X report and the Z that closes the same rows
 * are the same computation.
 */
import { formatAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type {
  DayAwaitingLine,
  DayCorrectionLine,
  DayReport,
  DayReportLine,
  DayUnsentLine,
  EarlierClose,
  UnsentTotals,
} from '../../../shared/ipc/contract.js';
import { NO_UNSENT } from '../../../shared/ipc/contract.js';
import type { Environment } from '../../../shared/domain.js';
import { isOverdue } from '../../../shared/overdue.js';
import type { PaymentRow } from '../payments/index.js';
import { addSums, toTotals, zeroSums, type Sums } from '../takings/index.js';
import { TAKINGS_NETWORK_SQL, type TransactionRow } from '../takings/index.js';

/** A transaction as a report reads it (DAY_ROWS_SQL): `network` is the one takings counts it under. */
export type DayRow = Omit<TransactionRow, 'environment' | 'local_date'> & {
  staff_id: string | null;
  staff_name: string | null;
  /** When this till started it; null for another till's payment. */
  started_at: number | null;
  reason: string | null;
  /** A hand settlement's figures taken back out (day-corrections.ts): counted negative. */
  correction?: true;
  /** The service's figures counted anew in place of those taken out (day-corrections.ts). */
  recount?: true;
};

/** The sums of the rows of one cashier, till and network (and how many of them were settled by hand). */
export type DayGroup = Sums & Pick<DayRow, 'staff_id' | 'staff_name' | 'till_id' | 'network'> & { by_hand: number };

/** A correction: the figures taken out and counted anew, as rows, and its line in the report. */
export type DayCorrection = { rows: DayRow[]; line: DayCorrectionLine };

export type DayReportInput = {
  environment: Environment;
  kind: 'x' | 'z';
  number: number | null;
  /** The previous Z's close (ms), null before the first. */
  previousCloseAt: number | null;
  at: number;
  closedBy: string | null;
  timeZone: string;
  /** The figures of the rows in no Z yet, summed in SQL per cashier, till and network (day-sums.ts). */
  groups: DayGroup[];
  /** The few rows a report lists: the latest failed ones (at most FAILURES_LISTED), and those started before the previous close. */
  failures: DayRow[];
  /** How many failed rows there are in all. */
  failuresCount: number;
  late: DayRow[];
  /** The earliest start (startOf) of the rows in no Z yet, null when there are none. */
  firstStart: number | null;
  corrections: DayCorrection[];
  awaiting: PaymentRow[];
  /** This till's payments that ended without the service's acknowledgement in the report's span (day-unsent.ts). */
  unsent: UnsentTotals;
  unsentLines: DayUnsentLine[];
  tillNames: ReadonlyMap<string, string>;
  /** The label of the closed Z whose day an instant belongs to (the first Z closed after it). */
  closedDayOf: (ms: number) => string | null;
  /** The till the report is made at: its figures are the shop's results as this till received them. */
  till: { id: string; name: string };
  /** The previous Z, when this till closed it earlier the same local day. */
  earlierToday: EarlierClose | null;
};

/**
 * How a stored Z keeps its rows (z_reports.rows_kept, migration 18; day-rows.ts): 'each', one z_report_rows row
 * per CSV line; 'frozen', only its frozen lines there, the rest are the results whose z_report_id it is.
 */
export type RowsKept = 'each' | 'frozen';

export type ZRow = {
  id: number;
  environment: Environment;
  number: number;
  opened_at: number | null;
  closed_at: number;
  closed_by_id: string | null;
  closed_by_name: string | null;
  report: string;
  lines: string;
  rows_kept: RowsKept;
};

/** Final transactions with what a report needs from this till's own payment (start, reason) when it is one. */
export const DAY_ROWS_SQL = `SELECT t.reference, t.client_reference, t.status, t.amount, t.fee, t.net, t.msisdn, t.till_id,
    t.staff_id, t.staff_name, t.completed_at, t.description, ${TAKINGS_NETWORK_SQL} AS network,
    t.settled_by_hand, p.created_at AS started_at, t.z_report_id,
    CASE WHEN t.settled_by_hand = 1 THEN 'Settled by hand: ' || p.hand_note ELSE p.error_message END AS reason
  FROM transactions t LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference`;

/** A stored Z's report as its fields are now: a Z made before payments could end unsent (or be corrected) has none. */
export const storedReport = (json: string): DayReport =>
  ({ unsent: NO_UNSENT, unsentLines: [], corrections: [], ...(JSON.parse(json) as Partial<DayReport>) }) as DayReport;

export const zLabel = (number: number): string => `Z-${String(number).padStart(4, '0')}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Its start when this till knows it, else its completion: a result for a day already closed started before that close. */
export const startOf = (row: Pick<DayRow, 'started_at' | 'completed_at'>): number => row.started_at ?? row.completed_at;

/**
 * A correction or a recount moves money only: the payment was counted by the Z that counted its hand settlement
 * (and, when the service disagreed, its service result is this report's own row), so taking a count back out
 * would print "-1 failed". The report states the change in words instead (correctedSinceOf).
 */
function sumsOf(row: DayRow): Sums {
  const sign = row.correction ? -1 : 1;
  const counts = row.correction || row.recount ? 0 : 1;
  return row.status === 'SUCCESS'
    ? { succeeded: counts, failed: 0, gross: sign * row.amount, fees: sign * row.fee, net: sign * row.net }
    : { succeeded: 0, failed: counts, gross: 0, fees: 0, net: 0 };
}

type Keyed = Sums & Pick<DayRow, 'staff_id' | 'staff_name' | 'till_id' | 'network'>;

function grouped<T>(parts: Keyed[], keyOf: (part: Keyed) => string, make: (key: string, first: Keyed, sums: Sums) => T): T[] {
  const groups = new Map<string, { first: Keyed; sums: Sums }>();
  for (const part of parts) {
    const key = keyOf(part);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { first: part, sums: zeroSums() }));
    addSums(group.sums, part);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, g]) => make(key, g.first, g.sums));
}

export const OVERDUE_ADVICE =
  "Overdue: its result most likely failed every webhook attempt. Find it on the service's dashboard by its merchant reference " +
  '{ref}, then replay its webhook there, or have a manager settle it by hand.';
export const PENDING_ADVICE = 'Wait: its result can still arrive. It will be counted in the next Z report.';

function awaitingLine(p: PaymentRow, now: number): DayAwaitingLine {
  const overdue = isOverdue(p.state, p.created_at, now);
  return {
    paymentId: p.id,
    merchantRef: p.merchant_ref,
    startedAt: iso(p.created_at),
    msisdn: displayMsisdn(p.msisdn),
    amount: formatAmount(p.amount),
    network: p.network,
    cashier: p.staff_name,
    status: overdue ? 'overdue' : 'pending',
    whatToDo: overdue ? OVERDUE_ADVICE.replace('{ref}', p.merchant_ref) : PENDING_ADVICE,
  };
}

function lineOf(row: DayRow, tillNames: ReadonlyMap<string, string>): DayReportLine {
  return {
    reference: row.reference,
    merchantRef: row.client_reference,
    completedAt: iso(row.completed_at),
    startedAt: row.started_at === null ? null : iso(row.started_at),
    msisdn: displayMsisdn(row.msisdn),
    status: row.status,
    amount: formatAmount(row.amount),
    till: tillNames.get(row.till_id) ?? row.till_id,
    cashier: row.staff_name,
    reason: row.reason,
    settledByHand: row.settled_by_hand === 1,
  };
}

/** Totals, by cashier, by till (named as in Takings) and by network, of the parts counted (corrections negative). */
function figures(counted: Keyed[], tillNames: ReadonlyMap<string, string>) {
  const all = zeroSums();
  for (const part of counted) addSums(all, part);
  return {
    totals: toTotals(all),
    byCashier: grouped(
      counted,
      (r) => `${r.staff_name ?? ''}\u0000${r.staff_id ?? ''}`,
      (_, first, s) => ({ cashierId: first.staff_id, cashier: first.staff_name, ...toTotals(s) }),
    ),
    byTill: grouped(
      counted,
      (r) => r.till_id,
      (tillId, _, s) => ({ tillId, tillName: tillNames.get(tillId) ?? null, ...toTotals(s) }),
    ),
    byNetwork: grouped(
      counted,
      (r) => r.network,
      (network, _, s) => ({ network, ...toTotals(s) }),
    ),
  };
}

/** A row's figures as a part of the sums (a correction counted negative). */
const partOf = (row: DayRow): Keyed => ({
  ...sumsOf(row),
  staff_id: row.staff_id,
  staff_name: row.staff_name,
  till_id: row.till_id,
  network: row.network,
});

/** The other tills this till has had results from, by name (or id, when none of their results named them). */
function otherTills(tillNames: ReadonlyMap<string, string>, byTill: DayReport['byTill'], own: string): string[] {
  const names = new Set<string>();
  for (const [id, name] of tillNames) if (id !== own) names.add(name);
  for (const t of byTill) if (t.tillId !== own) names.add(t.tillName ?? t.tillId);
  return [...names].sort((a, b) => a.localeCompare(b));
}

export function buildDayReport(input: DayReportInput): DayReport {
  const { tillNames, previousCloseAt, till } = input;
  const counted = [...input.groups, ...input.corrections.flatMap((c) => c.rows.map(partOf))];
  const sums = figures(counted, tillNames);
  return {
    environment: input.environment,
    label: input.number === null ? 'X' : zLabel(input.number),
    kind: input.kind,
    number: input.number,
    openedAt: previousCloseAt !== null ? iso(previousCloseAt) : input.firstStart !== null ? iso(input.firstStart) : null,
    at: iso(input.at),
    closedBy: input.closedBy,
    timeZone: input.timeZone,
    ...sums,
    settledByHand: input.groups.reduce((n, g) => n + g.by_hand, 0),
    failures: input.failures.map((r) => lineOf(r, tillNames)),
    failuresCount: input.failuresCount,
    arrivedAfterClose: input.late.map((row) => ({ ...lineOf(row, tillNames), closedDay: input.closedDayOf(startOf(row)) })),
    corrections: input.corrections.map((c) => c.line),
    awaiting: input.awaiting.map((p) => awaitingLine(p, input.at)),
    unsent: input.unsent,
    unsentLines: input.unsentLines,
    receivedBy: { tillId: till.id, tillName: till.name },
    otherTills: otherTills(tillNames, sums.byTill, till.id),
    earlierToday: input.earlierToday,
  };
}
