/**
 * Takings from the daily rollup (one row per environment, local date, till and network), so a day or
 * a 30-day range sums a few dozen rows whatever the number of transactions; CSV export from the
 * transactions themselves. Every query is bound to one environment: TEST and LIVE never mix.
 */
import { displayMsisdn } from '../../../shared/phone.js';
import { formatAmount } from '../../../shared/money.js';
import { addSums, ROLLUP_SUMS_SQL, toTotals, zeroSums, type Sums } from './sums.js';
import type { TakingsAwaiting, TakingsReport } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { CoreError } from '../errors.js';
import { datesBetween, dayBoundsMs } from '../../../shared/local-date.js';
import { OVERDUE_AFTER_MS } from '../../../shared/overdue.js';
import { NOBODY, TAKINGS_NETWORK_SQL } from './transactions-store.js';
import { OPEN_STATES, type Environment } from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import { csvCell, csvFile, csvLocalDateTime } from '../../../shared/csv.js';
import { formatReceiptNo } from '../../../shared/receipt-number.js';
import { UnsentSums } from './unsent.js';

export const MAX_RANGE_DAYS = 366;

type RollupRow = Sums & { local_date: string; till_id: string; network: string };
/** One person's figures only (a staff id; null: payments started with nobody signed in); undefined: everyone's. */
export type CashierFilter = string | null | undefined;
/** The SQL parameters of a cashier filter: `(@all OR staff_id IS @cashier)`. */
const WHO_SQL = '(@all OR staff_key = @cashier)';
const who = (cashierId: CashierFilter) => ({ all: cashierId === undefined ? 1 : 0, cashier: cashierId ?? NOBODY });
/** The same filter over payments and transactions, where nobody signed in is a NULL staff_id. */
const WHO_ROW_SQL = '(@all OR staff_id IS @cashier)';
const whoRow = (cashierId: CashierFilter) => ({ all: cashierId === undefined ? 1 : 0, cashier: cashierId ?? null });

export function checkRange(from: string, to: string): string[] {
  if (from > to) throw new CoreError('INVALID_REQUEST', 'The start date must be on or before the end date.');
  const days = datesBetween(from, to);
  if (days.length > MAX_RANGE_DAYS) throw new CoreError('INVALID_REQUEST', `Choose at most ${MAX_RANGE_DAYS} days.`);
  return days;
}

export class Takings {
  private readonly rollup;
  private readonly rows;
  private readonly handChecks;
  private readonly awaitingSums;
  private readonly tillNames;
  private readonly cashierSums;
  private readonly handSums;
  private readonly unsent;

  /** `till`: this till as Settings name it; its own name never waits for a result to echo it. */
  constructor(
    db: Db,
    private readonly now: () => number = Date.now,
    private readonly till: () => { id: string; name: string } | null = () => null,
  ) {
    // Served by the payments (environment, state) index: only the few open payments are read.
    this.awaitingSums = db.prepare(
      `SELECT count(*) AS count, coalesce(sum(amount), 0) AS amount, coalesce(sum(created_at < ?), 0) AS overdue
       FROM payments WHERE environment = ? AND state IN (${sqlList(OPEN_STATES)}) AND ${WHO_ROW_SQL}`,
    );
    this.tillNames = db.prepare('SELECT till_id, name FROM till_names');
    this.unsent = new UnsentSums(db);
    // Everything below reads the daily rollup (one row per environment, day, till, network, cashier and whether
    // settled by hand), never the range's transactions: a 30-day range is a few hundred rows at any volume.
    const RANGE = 'FROM daily_takings WHERE environment = @environment AND local_date BETWEEN @from AND @to';
    this.rollup = db.prepare(`SELECT local_date, till_id, network, succeeded, failed, gross, fees, net ${RANGE} AND ${WHO_SQL}`);
    this.cashierSums = db.prepare(
      `SELECT nullif(staff_key, '') AS staff_id, nullif(max(coalesce(staff_name, '')), '') AS staff_name, ${ROLLUP_SUMS_SQL}
       ${RANGE} GROUP BY staff_key ORDER BY 2`,
    );
    // The part of the figures settled by hand that the service has not (yet) corrected.
    this.handSums = db.prepare(`SELECT ${ROLLUP_SUMS_SQL} ${RANGE} AND by_hand = 1 AND ${WHO_SQL}`);
    // What the service later said of the few payments settled by hand (the payments_by_hand index), read once per export.
    this.handChecks = db.prepare('SELECT merchant_ref, hand_check FROM payments WHERE environment = ? AND hand_outcome IS NOT NULL');
    this.rows = db.prepare(
      // `network` is the one the takings screen counts it under (a TEST result of this till's own payment:
      // the network the cashier charged), so a pivot of the CSV matches the screen; `service_network` is
      // what the service said ("SANDBOX" for every TEST result).
      // receipt_no: this till's receipt number of its own PAID payments (other tills' are on their own till).
      `SELECT local_date, completed_at, reference, client_reference, till_id, ${TAKINGS_NETWORK_SQL} AS network, network AS service_network,
         msisdn, status, amount, fee, net, description, staff_name, settled_by_hand,
         (SELECT p.receipt_no FROM payments p WHERE p.environment = t.environment AND p.merchant_ref = t.client_reference) AS receipt_no
       FROM transactions t WHERE environment = ? AND local_date BETWEEN ? AND ? AND ${WHO_ROW_SQL} ORDER BY local_date, completed_at`,
    );
  }

  /** `cashierId`: one person's figures (byCashier stays everyone's, for choosing); the rollup serves everyone's. */
  report(environment: Environment, from: string, to: string, timeZone: string, cashierId?: CashierFilter): TakingsReport {
    const days = checkRange(from, to);
    const range = { environment, from, to };
    const rows = this.rollup.iterate({ ...range, ...who(cashierId) }) as Iterable<RollupRow>;
    const all = zeroSums();
    const byNetwork = new Map<string, Sums>();
    const byTill = new Map<string, Sums>();
    const byDay = new Map<string, Sums>(days.map((d) => [d, zeroSums()]));
    for (const row of rows) {
      addSums(all, row);
      for (const [map, key] of [
        [byNetwork, row.network],
        [byTill, row.till_id],
        [byDay, row.local_date],
      ] as const) {
        let sums = map.get(key);
        if (!sums) map.set(key, (sums = zeroSums()));
        addSums(sums, row);
      }
    }
    return {
      environment,
      from,
      to,
      timeZone,
      totals: toTotals(all),
      byNetwork: [...byNetwork].sort(([a], [b]) => a.localeCompare(b)).map(([network, s]) => ({ network, ...toTotals(s) })),
      byTill: this.tillRows(byTill),
      byCashier: (this.cashierSums.all(range) as (Sums & { staff_id: string | null; staff_name: string | null })[]).map((r) => ({
        cashierId: r.staff_id,
        cashier: r.staff_name,
        ...toTotals(r),
      })),
      byDay: [...byDay].sort(([a], [b]) => a.localeCompare(b)).map(([date, s]) => ({ date, ...toTotals(s) })),
      byHand: toTotals(this.handSums.get({ ...range, ...who(cashierId) }) as Sums),
      awaiting: this.awaiting(environment, cashierId),
      // By the day each ended, as the figures above count a result by the day it completed.
      unsent: this.unsent.totals(environment, dayBoundsMs(from, timeZone)[0] - 1, dayBoundsMs(to, timeZone)[1] - 1, cashierId),
    };
  }

  /**
   * Per till, named as its latest result's metadata named it (payment-metadata.ts); this till as Settings name it
   * (a hand settlement, or the service's result replacing one, may be the only result it has, and names nothing).
   */
  private tillRows(byTill: Map<string, Sums>): TakingsReport['byTill'] {
    const names = new Map((this.tillNames.all() as { till_id: string; name: string }[]).map((r) => [r.till_id, r.name]));
    const own = this.till();
    if (own?.name) names.set(own.id, own.name);
    return [...byTill]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tillId, s]) => ({ tillId, tillName: names.get(tillId) ?? null, ...toTotals(s) }));
  }

  /** This till's payments still without a final state in this environment (any date), of one person with `cashierId`. */
  awaiting(environment: Environment, cashierId?: CashierFilter): TakingsAwaiting {
    const row = this.awaitingSums.get(this.now() - OVERDUE_AFTER_MS, environment, whoRow(cashierId)) as {
      count: number;
      amount: number;
      overdue: number;
    };
    return { count: row.count, amount: formatAmount(row.amount), overdue: row.overdue, overdueAfterMinutes: OVERDUE_AFTER_MS / 60_000 };
  }

  /** `cashierId`: that person's rows only, and the file named after them. */
  /** `timeZone`: the till's, for completed_local (a date and time a spreadsheet reads as one). */
  exportCsv(
    environment: Environment,
    from: string,
    to: string,
    cashierId?: CashierFilter,
    timeZone = 'Africa/Accra',
  ): { filename: string; csv: string } {
    checkRange(from, to);
    const lines = [
      'date,completed_at,completed_local,reference,merchant_ref,receipt_no,till,network,msisdn,status,amount,fee,net,description,service_network,cashier,settled_by_hand',
    ];
    const checks = new Map(
      (this.handChecks.all(environment) as { merchant_ref: string; hand_check: string | null }[]).map((p) => [
        p.merchant_ref,
        p.hand_check,
      ]),
    );
    let person: string | null = null;
    for (const r of this.rows.iterate(environment, from, to, whoRow(cashierId)) as Iterable<Record<string, string | number | null>>) {
      person ??= r.staff_name as string | null;
      lines.push(
        [
          r.local_date,
          new Date(r.completed_at as number).toISOString(),
          csvLocalDateTime(r.completed_at as number, timeZone),
          r.reference,
          r.client_reference,
          r.receipt_no === null ? '' : formatReceiptNo(r.receipt_no as number),
          r.till_id,
          r.network,
          // "024 123 4567": a spreadsheet keeps it as text people recognise (233241234567 opens as 2.33E+11).
          displayMsisdn(r.msisdn as string),
          r.status,
          formatAmount(r.amount as number),
          formatAmount(r.fee as number),
          formatAmount(r.net as number),
          r.description,
          r.service_network,
          r.staff_name,
          handColumn(r.settled_by_hand as number, checks.get(r.client_reference as string) ?? null),
        ]
          .map(csvCell)
          .join(','),
      );
    }
    const suffix = cashierId === undefined ? '' : `-${fileWord(cashierId === null ? 'nobody signed in' : (person ?? cashierId))}`;
    return { filename: `momo-takings-${environment}-${from}_${to}${suffix}.csv`, csv: csvFile(lines) };
  }
}

/** The CSV's settled_by_hand: yes (by hand, no result from the service yet), confirmed (it agreed), overridden (its result replaced the hand's). */
function handColumn(settledByHand: number, check: string | null): string {
  if (check === 'overridden') return 'overridden';
  if (settledByHand !== 1) return '';
  return check === 'confirmed' ? 'confirmed' : 'yes';
}

/** A name as a file name's part: "Ama Owusu" -> "ama-owusu" (letters and digits only). */
function fileWord(name: string): string {
  return (
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'cashier'
  );
}
