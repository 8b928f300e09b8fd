/**
 * What an X report or a close reads of the results in no Z yet (issue 20 item 15): their figures summed in
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
  private readonly failuresCount;
  private readonly late;
  private readonly firstStart;

  constructor(db: Db) {
    // Grouped in the covering index's own order, so SQLite needs no sort of every row: only a TEST sandbox
    // result is counted under the network its payment was charged on (TAKINGS_NETWORK_SQL), and only those
    // rows are grouped by that (a name of its own: GROUP BY network would be the column). Halves the X report.
    const sandbox = `t.environment = 'test' AND t.network = '${SANDBOX_NETWORK}'`;
    this.groups = db.prepare(
      `SELECT staff_id, staff_name, till_id, network, ${SUMS_SQL}, sum(settled_by_hand) AS by_hand
       FROM transactions t INDEXED BY transactions_unclosed WHERE ${UNCLOSED} AND NOT (${sandbox})
       GROUP BY staff_id, staff_name, till_id, network
       UNION ALL
       SELECT staff_id, staff_name, till_id, takings_network AS network, ${SUMS_SQL}, sum(settled_by_hand) AS by_hand
       FROM (SELECT t.staff_id, t.staff_name, t.till_id, ${TAKINGS_NETWORK_SQL} AS takings_network, t.status, t.amount, t.fee,
           t.net, t.settled_by_hand
         FROM transactions t INDEXED BY transactions_unclosed WHERE ${UNCLOSED} AND ${sandbox})
       GROUP BY staff_id, staff_name, till_id, takings_network`,
    );
    // Only what the report's lines show (day-report.ts' lineOf), through the partial index of failed rows in no Z.
    this.failures = db.prepare(
      `SELECT t.reference, t.client_reference, t.status, t.amount, t.msisdn, t.till_id, t.staff_name, t.completed_at,
         t.settled_by_hand, p.created_at AS started_at,
         CASE WHEN t.settled_by_hand = 1 THEN 'Settled by hand: ' || p.hand_note ELSE p.error_message END AS reason
       FROM transactions t INDEXED BY transactions_unclosed_failed
       LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference
       WHERE ${UNCLOSED} AND t.status = 'FAILED' ORDER BY t.completed_at DESC, t.reference DESC LIMIT ${FAILURES_LISTED}`,
    );
    this.failuresCount = db.prepare(
      `SELECT count(*) AS n FROM transactions t INDEXED BY transactions_unclosed_failed WHERE ${UNCLOSED} AND t.status = 'FAILED'`,
    );
    // Started (or, for another till's payment, completed) before the previous close: its day was closed.
    this.late = db.prepare(`${DAY_ROWS_SQL} WHERE ${UNCLOSED} AND coalesce(p.created_at, t.completed_at) < ? ${ORDER}`);
    this.firstStart = db.prepare(
      `SELECT min(coalesce(p.created_at, t.completed_at)) AS first FROM transactions t
       LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference WHERE ${UNCLOSED}`,
    );
  }

  /** `previousCloseAt`: the last Z's close (ms), null before the first (then nothing arrived after a close). */
  read(environment: Environment, previousCloseAt: number | null): DaySumsRead {
    return {
      groups: this.groups.all(environment, environment) as DayGroup[],
      // The latest FAILURES_LISTED, read newest first through the index, listed oldest first.
      failures: (this.failures.all(environment) as DayRow[]).reverse(),
      failuresCount: (this.failuresCount.get(environment) as { n: number }).n,
      late: previousCloseAt === null ? [] : (this.late.all(environment, previousCloseAt) as DayRow[]),
      firstStart: previousCloseAt === null ? (this.firstStart.get(environment) as { first: number | null }).first : null,
    };
  }
}
