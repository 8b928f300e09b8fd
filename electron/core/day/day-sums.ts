/**
 * What an X report or a close reads of the results in no Z yet: their figures summed in
 * SQL per cashier, till and network (a few rows, however long the till has gone without a close), and only
 * the rows a report lists one by one: the failed ones and those that arrived after the previous close.
 */
import type { Environment } from '../../../shared/domain.js';
import type { Db } from '../storage/index.js';
import { SANDBOX_NETWORK, SUMS_SQL, TAKINGS_NETWORK_SQL } from '../takings/index.js';
import { FAILURES_LISTED } from '../../../shared/ipc/day-contract.js';
import { DAY_ROWS_SQL, type DayGroup, type DayRow } from './day-report.js';

/** The rows of an environment in no Z yet, oldest first (the order of a Z's CSV). */
const UNCLOSED = 't.environment = ? AND t.z_report_id IS NULL';
const ORDER = 'ORDER BY t.completed_at, t.reference';

export type DaySumsRead = {
  groups: DayGroup[];
  failures: DayRow[];
  failuresCount: number;
  late: DayRow[];
  firstStart: number | null;
};

export class DaySums {
  private readonly groups;
  private readonly failures;
  private readonly late;
  private readonly firstPaid;
  private readonly firstOther;

  constructor(db: Db) {
    // Grouped in the covering index's own order, so SQLite needs no sort of every row: only a TEST sandbox
    // result is counted under the network its payment was charged on (TAKINGS_NETWORK_SQL), and only those
    // rows are grouped by that (a name of its own: GROUP BY network would be the column). Halves the X report.
    // LIVE has no sandbox result: one pass over its rows, not a second one that finds none.
    const sandbox = `t.environment = 'test' AND t.network = '${SANDBOX_NETWORK}'`;
    const unclosed = 't.environment = @environment AND t.z_report_id IS NULL';
    const byNetwork = `SELECT staff_id, staff_name, till_id, network, ${SUMS_SQL}, sum(settled_by_hand) AS by_hand
       FROM transactions t INDEXED BY transactions_unclosed WHERE ${unclosed}`;
    this.groups = {
      live: db.prepare(`${byNetwork} GROUP BY staff_id, staff_name, till_id, network`),
      test: db.prepare(
        `${byNetwork} AND NOT (${sandbox})
         GROUP BY staff_id, staff_name, till_id, network
         UNION ALL
         SELECT staff_id, staff_name, till_id, takings_network AS network, ${SUMS_SQL}, sum(settled_by_hand) AS by_hand
         FROM (SELECT t.staff_id, t.staff_name, t.till_id, ${TAKINGS_NETWORK_SQL} AS takings_network, t.status, t.amount, t.fee,
             t.net, t.settled_by_hand
           FROM transactions t INDEXED BY transactions_unclosed WHERE ${unclosed} AND ${sandbox})
         GROUP BY staff_id, staff_name, till_id, takings_network`,
      ),
    };
    // Only what the report's lines show (day-report.ts' lineOf): the latest failed rows, newest first through the
    // index of the rows in no Z by time (migration 18); how many failed in all is summed with the groups.
    this.failures = db.prepare(
      `SELECT t.reference, t.client_reference, t.status, t.amount, t.msisdn, t.till_id, t.staff_name, t.completed_at,
         t.settled_by_hand, p.created_at AS started_at,
         CASE WHEN t.settled_by_hand = 1 THEN 'Settled by hand: ' || p.hand_note ELSE p.error_message END AS reason
       FROM transactions t INDEXED BY transactions_unclosed_by_time
       LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference
       WHERE ${UNCLOSED} AND t.status = 'FAILED' ORDER BY t.completed_at DESC, t.reference DESC LIMIT ${FAILURES_LISTED}`,
    );
    // Started (or, for another till's payment, completed) before the previous close: its day was closed.
    this.late = db.prepare(`${DAY_ROWS_SQL} WHERE ${UNCLOSED} AND coalesce(p.created_at, t.completed_at) < ? ${ORDER}`);
    // The earliest start (startOf) of the rows in no Z, without looking up every row's payment: the earliest
    // payment of this till with a result in no Z (its start; read in order of start, so it stops at the first),
    // and the earliest result in no Z with no payment of this till (its completion; read in order of completion,
    // only those before that start, which could be earlier).
    this.firstPaid = db.prepare(
      `SELECT p.created_at AS first FROM payments p WHERE p.environment = @environment AND EXISTS (
         SELECT 1 FROM transactions t WHERE t.environment = p.environment AND t.client_reference = p.merchant_ref AND t.z_report_id IS NULL)
       ORDER BY p.created_at LIMIT 1`,
    );
    this.firstOther = db.prepare(
      `SELECT t.completed_at AS first FROM transactions t INDEXED BY transactions_unclosed_by_time
       WHERE t.environment = @environment AND t.z_report_id IS NULL AND t.completed_at < @before
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.environment = t.environment AND p.merchant_ref = t.client_reference)
       ORDER BY t.completed_at LIMIT 1`,
    );
  }

  /** `previousCloseAt`: the last Z's close (ms), null before the first (then nothing arrived after a close). */
  read(environment: Environment, previousCloseAt: number | null): DaySumsRead {
    const groups = this.groups[environment].all({ environment }) as DayGroup[];
    return {
      groups,
      // The latest FAILURES_LISTED, read newest first through the index, listed oldest first.
      failures: (this.failures.all(environment) as DayRow[]).reverse(),
      failuresCount: groups.reduce((n, g) => n + g.failed, 0),
      late: previousCloseAt === null ? [] : (this.late.all(environment, previousCloseAt) as DayRow[]),
      firstStart: previousCloseAt === null ? this.firstStart(environment) : null,
    };
  }

  private firstStart(environment: Environment): number | null {
    type First = { first: number } | undefined;
    const paid = (this.firstPaid.get({ environment }) as First)?.first ?? null;
    // No payment: any completion counts (every Unix ms a Date can hold is below MAX_SAFE_INTEGER).
    const other = (this.firstOther.get({ environment, before: paid ?? Number.MAX_SAFE_INTEGER }) as First)?.first ?? null;
    return other ?? paid;
  }
}
