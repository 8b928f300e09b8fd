/**
 * A Z's rows. A Z closed from migration 18 on (rows_kept 'frozen') finds the results it counted by their own
 * z_report_id, which the close sets: it writes no row per result. What could change after the close is frozen
 * as its CSV line in z_report_rows instead: results settled by hand (the service's own result may replace
 * their figures later; each keeps its place in the CSV order, completed_at and reference), then the correction
 * and recount lines. A Z closed before (rows_kept 'each') has one z_report_rows row per CSV line, by reference
 * (migration 17), frozen or not; every line of a Z closed before migration 17 is frozen. At export, the lines
 * are read back in order: frozen ones as they were, the others built from the result they name.
 */
import type { DayReport } from '../../../shared/ipc/contract.js';
import type { Environment } from '../../../shared/domain.js';
import type { Db } from '../storage/index.js';
import { TAKINGS_NETWORK_SQL } from '../takings/index.js';
import { DAY_ROWS_SQL, startOf, type DayRow, type RowsKept } from './day-report.js';
import { csvLine, type CsvLine, type ZCsvRow } from './day-csv.js';

/** What the export reads of a line: the result it names (when not frozen), and its payment's receipt number. */
const READ_COLUMNS = `u.late, u.line, t.reference, t.client_reference, t.status, t.amount, t.fee, t.net, t.msisdn, t.till_id,
  t.staff_id, t.staff_name, t.completed_at, t.description, ${TAKINGS_NETWORK_SQL} AS network, t.settled_by_hand,
  (SELECT p.receipt_no FROM payments p WHERE p.environment = @environment
     AND p.merchant_ref = coalesce(t.client_reference, json_extract(u.line, '$[2]'))) AS receipt_no`;

export class ZRows {
  private readonly byHand;
  private readonly insertFrozen;
  private readonly readEach;
  private readonly readFrozen;

  constructor(db: Db) {
    // Through the partial index of results settled by hand (few); their order is their completed_at and reference.
    this.byHand = db.prepare(`${DAY_ROWS_SQL} WHERE t.environment = ? AND t.z_report_id IS NULL AND t.settled_by_hand = 1`);
    this.insertFrozen = db.prepare(
      'INSERT INTO z_report_rows (z_report_id, seq, reference, late, line, completed_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.readEach = db.prepare(
      `SELECT ${READ_COLUMNS} FROM z_report_rows u
       LEFT JOIN transactions t ON u.line IS NULL AND t.environment = @environment AND t.reference = u.reference
       WHERE u.z_report_id = @id ORDER BY u.seq`,
    );
    // The results counted (not settled by hand: those are frozen) and the frozen lines, in CSV order: by completion
    // and reference as the close found them, then the correction and recount lines (no completed_at) by seq.
    this.readFrozen = db.prepare(
      `SELECT ${READ_COLUMNS} FROM (
         SELECT 0 AS part, c.completed_at AS at, c.reference AS ref, 0 AS seq, NULL AS late, NULL AS line, c.rowid AS row
         FROM transactions c INDEXED BY transactions_closed
         WHERE c.environment = @environment AND c.z_report_id = @id AND c.settled_by_hand = 0
         UNION ALL
         SELECT r.completed_at IS NULL, r.completed_at, r.reference, r.seq, r.late, r.line, NULL
         FROM z_report_rows r WHERE r.z_report_id = @id
       ) u LEFT JOIN transactions t ON t.rowid = u.row
       ORDER BY u.part, u.at, u.ref, u.seq`,
    );
  }

  /**
   * Freezes the lines of Z `id` (closing `environment`; `previousCloseAt`: the last Z's close) that a later
   * result could change: those settled by hand, then the correction and recount rows. Call inside the close's
   * transaction, before its rows are assigned.
   */
  store(id: number, environment: Environment, previousCloseAt: number | null, report: DayReport, corrections: DayRow[]): void {
    const late = (row: DayRow) => previousCloseAt !== null && startOf(row) < previousCloseAt;
    let seq = 0;
    for (const row of this.byHand.all(environment) as DayRow[]) {
      const line = JSON.stringify(csvLine({ ...row, late: late(row) }, report));
      this.insertFrozen.run(id, (seq += 1), row.reference, late(row) ? 1 : 0, line, row.completed_at);
    }
    for (const row of corrections) {
      this.insertFrozen.run(id, (seq += 1), row.reference, 0, JSON.stringify(csvLine({ ...row, late: false }, report)), null);
    }
  }

  /** The rows of a stored Z in CSV order, each as its line and what the export adds to it. */
  *lines(id: number, environment: Environment, report: DayReport, kept: RowsKept): Generator<ZCsvRow> {
    type Read = DayRow & { late: number | null; line: string | null; receipt_no: number | null };
    // A Z closed before migration 18 stores each row's late mark (and its report may predate arrivedAfterClose).
    // Since, a counted result not frozen arrived after an earlier close when the report listed it so (the same
    // test, in the same transaction as the close).
    const read = kept === 'frozen' ? this.readFrozen : this.readEach;
    const arrivedLate = new Set(kept === 'frozen' ? report.arrivedAfterClose.map((line) => line.reference) : []);
    for (const row of read.iterate({ id, environment }) as Iterable<Read>) {
      const late = row.late === null ? arrivedLate.has(row.reference) : row.late === 1;
      const line = row.line === null ? csvLine({ ...row, late }, report) : (JSON.parse(row.line) as CsvLine);
      yield { line, receiptNo: row.receipt_no };
    }
  }
}
