/**
 * The X and Z reports' figures, computed from the final transactions they cover (the till's copy of the
 * merchant's results, all tills) and this till's payments still without a result. Pure: the caller reads
 * the rows; an X report and the Z that closes the same rows are the same computation.
 */
import { formatAmount } from '../../shared/money.js';
import { displayMsisdn } from '../../shared/phone.js';
import type { DayAwaitingLine, DayReport, DayReportLine } from '../../shared/ipc/contract.js';
import type { Environment } from '../../shared/domain.js';
import { isOverdue } from './overdue.js';
import type { PaymentRow } from './payments-repo.js';
import { addSums, toTotals, zeroSums, type Sums } from './sums.js';
import { TAKINGS_NETWORK_SQL, type TransactionRow } from './transactions-store.js';

/** A transaction as a report reads it (DAY_ROWS_SQL): `network` is the one takings counts it under. */
export type DayRow = Omit<TransactionRow, 'environment' | 'local_date'> & {
  staff_id: string | null;
  staff_name: string | null;
  /** When this till started it; null for another till's payment. */
  started_at: number | null;
  reason: string | null;
};

export type DayReportInput = {
  environment: Environment;
  kind: 'x' | 'z';
  number: number | null;
  /** The previous Z's close (ms), null before the first. */
  previousCloseAt: number | null;
  at: number;
  closedBy: string | null;
  timeZone: string;
  rows: DayRow[];
  awaiting: PaymentRow[];
  tillNames: ReadonlyMap<string, string>;
  /** The label of the closed Z whose day an instant belongs to (the first Z closed after it). */
  closedDayOf: (ms: number) => string | null;
};

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
};

/** Final transactions with what a report needs from this till's own payment (start, reason) when it is one. */
export const DAY_ROWS_SQL = `SELECT t.reference, t.client_reference, t.status, t.amount, t.fee, t.net, t.msisdn, t.till_id,
    t.staff_id, t.staff_name, t.completed_at, t.description, ${TAKINGS_NETWORK_SQL} AS network,
    p.created_at AS started_at, p.error_message AS reason, t.z_report_id
  FROM transactions t LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference`;

export const zLabel = (number: number): string => `Z-${String(number).padStart(4, '0')}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** Its start when this till knows it, else its completion: a result for a day already closed started before that close. */
export const startOf = (row: Pick<DayRow, 'started_at' | 'completed_at'>): number => row.started_at ?? row.completed_at;

const sumsOf = (row: DayRow): Sums =>
  row.status === 'SUCCESS'
    ? { succeeded: 1, failed: 0, gross: row.amount, fees: row.fee, net: row.net }
    : { succeeded: 0, failed: 1, gross: 0, fees: 0, net: 0 };

function grouped<T>(rows: DayRow[], keyOf: (row: DayRow) => string, make: (key: string, first: DayRow, sums: Sums) => T): T[] {
  const groups = new Map<string, { first: DayRow; sums: Sums }>();
  for (const row of rows) {
    const key = keyOf(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { first: row, sums: zeroSums() }));
    addSums(group.sums, sumsOf(row));
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

export function buildDayReport(input: DayReportInput): DayReport {
  const { rows, tillNames } = input;
  const tillOf = (id: string) => tillNames.get(id) ?? id;
  const line = (row: DayRow): DayReportLine => ({
    reference: row.reference,
    merchantRef: row.client_reference,
    completedAt: iso(row.completed_at),
    startedAt: row.started_at === null ? null : iso(row.started_at),
    msisdn: displayMsisdn(row.msisdn),
    status: row.status,
    amount: formatAmount(row.amount),
    till: tillOf(row.till_id),
    cashier: row.staff_name,
    reason: row.reason,
  });
  const all = zeroSums();
  for (const row of rows) addSums(all, sumsOf(row));
  const { previousCloseAt } = input;
  const late = previousCloseAt === null ? [] : rows.filter((row) => startOf(row) < previousCloseAt);
  return {
    environment: input.environment,
    label: input.number === null ? 'X' : zLabel(input.number),
    kind: input.kind,
    number: input.number,
    openedAt:
      previousCloseAt !== null
        ? iso(previousCloseAt)
        : rows.length
          ? iso(rows.reduce((min, r) => Math.min(min, startOf(r)), Infinity))
          : null,
    at: iso(input.at),
    closedBy: input.closedBy,
    timeZone: input.timeZone,
    totals: toTotals(all),
    byCashier: grouped(
      rows,
      (r) => `${r.staff_name ?? ''}\u0000${r.staff_id ?? ''}`,
      (_, first, s) => ({ cashierId: first.staff_id, cashier: first.staff_name, ...toTotals(s) }),
    ),
    byTill: grouped(
      rows,
      (r) => r.till_id,
      (tillId, _, s) => ({ tillId, tillName: tillNames.get(tillId) ?? null, ...toTotals(s) }),
    ),
    byNetwork: grouped(
      rows,
      (r) => r.network,
      (network, _, s) => ({ network, ...toTotals(s) }),
    ),
    failures: rows.filter((r) => r.status === 'FAILED').map(line),
    arrivedAfterClose: late.map((row) => ({ ...line(row), closedDay: input.closedDayOf(startOf(row)) })),
    awaiting: input.awaiting.map((p) => awaitingLine(p, input.at)),
  };
}
