/**
 * The day's close. An X report sums every final transaction of an environment in no Z yet, in SQL, and stores
 * nothing; closing the day computes the same report, stores it as the next numbered Z (per environment) with
 * the lines it freezes (day-rows.ts) and marks the rows it counted, in one IMMEDIATE SQLite transaction: two
 * closes at once cannot count the same rows twice or take the same number. A stored Z never changes (the
 * database refuses it). Its CSV is built from the rows it counted and its frozen lines when it is exported.
 */
import type { DayReport, EarlierClose, SinceCloseLine, TakingsTotals, ZSummary } from '../../../shared/ipc/contract.js';
import { OPEN_STATES, type Environment } from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import type { Db } from '../storage/index.js';
import { buildDayReport, storedReport, zLabel, type ZRow } from './day-report.js';
import { SinceClose } from './day-since.js';
import { DayCorrections } from './day-corrections.js';
import { DaySums } from './day-sums.js';
import { DayUnsent } from './day-unsent.js';
import { ZRows } from './day-rows.js';
import { zCsv } from './day-csv.js';
import { CoreError } from '../errors.js';
import type { PaymentRow } from '../payments/index.js';
import { localDate } from '../../../shared/local-date.js';

type Closer = { id: string; name: string } | null;

/** This till as Settings name it: every report says it is the shop's results as this till received them. */
export type ThisTill = { id: string; name: string };

export class DayClose {
  private readonly stmts;
  private readonly sinceClose;
  private readonly corrections;
  private readonly sums;
  private readonly zRows;
  private readonly unsent;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly till: () => ThisTill,
  ) {
    this.stmts = {
      last: db.prepare('SELECT * FROM z_reports WHERE environment = ? ORDER BY number DESC LIMIT 1'),
      dayOf: db.prepare('SELECT number FROM z_reports WHERE environment = ? AND closed_at > ? ORDER BY number LIMIT 1'),
      awaiting: db.prepare(`SELECT * FROM payments WHERE environment = ? AND state IN (${sqlList(OPEN_STATES)}) ORDER BY created_at`),
      tillNames: db.prepare('SELECT till_id, name FROM till_names'),
      insert: db.prepare(
        `INSERT INTO z_reports (environment, number, opened_at, closed_at, closed_by_id, closed_by_name, report, lines, rows_kept)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'frozen')`,
      ),
      assign: db.prepare('UPDATE transactions SET z_report_id = ? WHERE environment = ? AND z_report_id IS NULL'),
      list: db.prepare(
        `SELECT id, number, opened_at, closed_at, closed_by_name, json_extract(report, '$.totals') AS totals
         FROM z_reports WHERE environment = ? ORDER BY number DESC LIMIT 500`,
      ),
      byId: db.prepare('SELECT * FROM z_reports WHERE id = ? AND environment = ?'),
    };
    this.sinceClose = new SinceClose(db);
    this.corrections = new DayCorrections(db);
    this.sums = new DaySums(db);
    this.zRows = new ZRows(db);
    this.unsent = new DayUnsent(db);
  }

  /** The day so far: what closing now would report. */
  xReport(environment: Environment, timeZone: string): DayReport {
    return this.compute(environment, timeZone, 'x', null).report;
  }

  /**
   * Closes the day as the next Z. `lastNumber` is the latest Z the caller knows: when another close came
   * first, this one is refused (ALREADY_CLOSED) rather than making a second report.
   */
  close(environment: Environment, timeZone: string, lastNumber: number, by: Closer): { id: number; report: DayReport } {
    const run = this.db.transaction(() => {
      const last = this.last(environment);
      if ((last?.number ?? 0) !== lastNumber) {
        const closedBy = last?.closed_by_name ? ` by ${last.closed_by_name}` : '';
        throw new CoreError(
          'ALREADY_CLOSED',
          `The day was just closed as ${zLabel(last?.number ?? 0)}${closedBy}. Nothing was closed twice.`,
        );
      }
      const previousCloseAt = last?.closed_at ?? null;
      const { report, corrections } = this.compute(environment, timeZone, 'z', by?.name ?? null, (last?.number ?? 0) + 1);
      const result = this.stmts.insert.run(
        environment,
        report.number,
        report.openedAt === null ? null : Date.parse(report.openedAt),
        Date.parse(report.at),
        by?.id ?? null,
        by?.name ?? null,
        JSON.stringify(report),
        '[]', // its rows: the results it counts (their z_report_id) and its frozen lines in z_report_rows (migration 18)
      );
      const id = Number(result.lastInsertRowid);
      this.zRows.store(id, environment, previousCloseAt, report, corrections);
      this.stmts.assign.run(id, environment);
      return { id, report };
    });
    // Marking every row it counts dirties every page of them: with SQLite's default 2 MB page cache, the
    // close would write them to the WAL while it runs and again at its commit. It runs with 64 MB (negative:
    // KiB; the pages of some 200,000 rows in no Z), given back after.
    const cacheSize = this.db.pragma('cache_size', { simple: true }) as number;
    this.db.pragma('cache_size = -65536');
    try {
      return run.immediate();
    } finally {
      this.db.pragma(`cache_size = ${cacheSize}`);
    }
  }

  list(environment: Environment): ZSummary[] {
    type Listed = Pick<ZRow, 'id' | 'number' | 'opened_at' | 'closed_at' | 'closed_by_name'> & { totals: string };
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return (this.stmts.list.all(environment) as Listed[]).map((row) => ({
      id: row.id,
      number: row.number,
      label: zLabel(row.number),
      openedAt: iso(row.opened_at),
      closedAt: iso(row.closed_at) as string,
      closedBy: row.closed_by_name,
      totals: JSON.parse(row.totals) as TakingsTotals,
    }));
  }

  get(environment: Environment, id: number): ZRow {
    const row = this.stmts.byId.get(id, environment) as ZRow | undefined;
    if (!row) throw new CoreError('NOT_FOUND', 'There is no such Z report in this environment.');
    return row;
  }

  /** A stored Z as frozen, and what has happened since its close to the payments of its day. */
  view(environment: Environment, id: number): { id: number; report: DayReport; sinceClose: SinceCloseLine[] } {
    const row = this.get(environment, id);
    const report = storedReport(row.report);
    return { id, report, sinceClose: this.sinceClose.lines(row, report) };
  }

  /** A stored Z's CSV, built now from its rows (day-rows.ts) and its frozen figures. */
  exportCsv(environment: Environment, id: number): { filename: string; csv: string } {
    const row = this.get(environment, id);
    const report = storedReport(row.report);
    return zCsv(report, this.zRows.lines(id, environment, report, row.rows_kept), this.till().name);
  }

  last(environment: Environment): ZRow | null {
    return (this.stmts.last.get(environment) as ZRow | undefined) ?? null;
  }

  /** The previous Z when it was closed at this till on the same local date (the shop's time zone) as `at`. */
  private static earlierToday(last: ZRow | null, at: number, timeZone: string): EarlierClose | null {
    if (!last || localDate(last.closed_at, timeZone) !== localDate(at, timeZone)) return null;
    return { label: zLabel(last.number), at: new Date(last.closed_at).toISOString(), closedBy: last.closed_by_name };
  }

  private compute(environment: Environment, timeZone: string, kind: 'x' | 'z', closedBy: string | null, number: number | null = null) {
    const last = this.last(environment);
    const previousCloseAt = last?.closed_at ?? null;
    const at = this.now();
    const till = this.till();
    const tillNames = new Map((this.stmts.tillNames.all() as { till_id: string; name: string }[]).map((r) => [r.till_id, r.name]));
    // This till's own name is the one in Settings, even when no result of the service echoed it yet (a hand settlement).
    if (till.name) tillNames.set(till.id, till.name);
    const closedDayOf = (ms: number) => {
      const z = this.stmts.dayOf.get(environment, ms) as { number: number } | undefined;
      return z ? zLabel(z.number) : null;
    };
    const corrections = this.corrections.list(environment, previousCloseAt, closedDayOf);
    const report = buildDayReport({
      environment,
      kind,
      number,
      previousCloseAt,
      at,
      closedBy,
      timeZone,
      ...this.sums.read(environment, previousCloseAt),
      awaiting: this.stmts.awaiting.all(environment) as PaymentRow[],
      ...this.unsent.read(environment, previousCloseAt, at),
      tillNames,
      closedDayOf,
      corrections,
      till,
      earlierToday: DayClose.earlierToday(last, at, timeZone),
    });
    return { report, corrections: corrections.flatMap((c) => c.rows) };
  }
}
