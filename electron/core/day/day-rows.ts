/**
 * A Z's rows, stored by reference (migration 17, z_report_rows): at the close, one row per result it counts
 * (its reference, whether it arrived after an earlier close), written by one INSERT … SELECT, so a close at a
 * long-used till holds no line per row in memory. What could change after the close is frozen as its CSV
 * line instead: results settled by hand (the service's own result may replace their figures later), the
 * correction and recount lines, and every line of a Z closed before migration 17. At export, the lines are
 * read back in order: frozen ones as they were, the others built from the result they name.
 */
import type { DayReport } from '../../../shared/ipc/contract.js';
import type { Environment } from '../../../shared/domain.js';
import type { Db } from '../storage/index.js';
import { TAKINGS_NETWORK_SQL } from '../takings/index.js';
import { DAY_ROWS_SQL, startOf, type DayRow } from './day-report.js';
import { csvLine, type CsvLine, type ZCsvRow } from './day-csv.js';

export class ZRows {
  private readonly byHand;
  private readonly insertCounted;
  private readonly insertFrozen;
  private readonly read;

  constructor(db: Db) {
    this.byHand = db.prepare(`${DAY_ROWS_SQL} WHERE t.environment = ? AND t.z_report_id IS NULL AND t.settled_by_hand = 1`);
    // Rows in CSV order (completed_at, reference); the hand-settled ones take their frozen line from @frozen.
    this.insertCounted = db.prepare(
      `INSERT INTO z_report_rows (z_report_id, seq, reference, late, line)
       SELECT @id, row_number() OVER (ORDER BY t.completed_at, t.reference), t.reference,
         @previous IS NOT NULL AND coalesce(p.created_at, t.completed_at) < @previous,
         CASE WHEN t.settled_by_hand = 1 THEN (SELECT j.value FROM json_each(@frozen) j WHERE j.key = t.reference) END
       FROM transactions t LEFT JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference
       WHERE t.environment = @environment AND t.z_report_id IS NULL`,
    );
    this.insertFrozen = db.prepare('INSERT INTO z_report_rows (z_report_id, seq, reference, late, line) VALUES (?, ?, ?, 0, ?)');
    this.read = db.prepare(
      `SELECT r.late, r.line, t.reference, t.client_reference, t.status, t.amount, t.fee, t.net, t.msisdn, t.till_id,
         t.staff_id, t.staff_name, t.completed_at, t.description, ${TAKINGS_NETWORK_SQL} AS network, t.settled_by_hand,
         (SELECT p.receipt_no FROM payments p WHERE p.environment = @environment
            AND p.merchant_ref = coalesce(t.client_reference, json_extract(r.line, '$[2]'))) AS receipt_no
       FROM z_report_rows r
       LEFT JOIN transactions t ON r.line IS NULL AND t.environment = @environment AND t.reference = r.reference
       WHERE r.z_report_id = @id ORDER BY r.seq`,
    );
  }

  /**
   * Writes the rows of Z `id` (closing `environment`; `previousCloseAt`: the last Z's close), then the
   * correction and recount rows after them. Call inside the close's transaction, before its rows are assigned.
   */
  store(id: number, environment: Environment, previousCloseAt: number | null, report: DayReport, corrections: DayRow[]): void {
    const late = (row: DayRow) => previousCloseAt !== null && startOf(row) < previousCloseAt;
    const frozen: Record<string, CsvLine> = {};
    for (const row of this.byHand.iterate(environment) as Iterable<DayRow>) {
      frozen[row.reference] = csvLine({ ...row, late: late(row) }, report);
    }
    const params = { id, environment, previous: previousCloseAt, frozen: JSON.stringify(frozen) };
    const counted = this.insertCounted.run(params).changes;
    corrections.forEach((row, i) => {
      this.insertFrozen.run(id, counted + i + 1, row.reference, JSON.stringify(csvLine({ ...row, late: false }, report)));
    });
  }

  /** The rows of a stored Z in CSV order, each as its line and what the export adds to it. */
  *lines(id: number, environment: Environment, report: DayReport): Generator<ZCsvRow> {
    type Read = DayRow & { late: number; line: string | null; receipt_no: number | null };
    for (const row of this.read.iterate({ id, environment }) as Iterable<Read>) {
      const line = row.line === null ? csvLine({ ...row, late: row.late === 1 }, report) : (JSON.parse(row.line) as CsvLine);
      yield { line, receiptNo: row.receipt_no };
    }
  }
}
