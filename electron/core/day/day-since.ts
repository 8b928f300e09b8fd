/**
 * What happened since a Z's close to the payments of its day, shown beside its frozen figures: each
 * payment the snapshot listed as pending or overdue (still waiting, or its result and the later Z that
 * counted it), and any other result for a payment started before that close that arrived after it.
 */
import type { SinceCloseLine } from '../../../shared/ipc/contract.js';
import { formatAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type { DayReport } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { DAY_ROWS_SQL, startOf, zLabel, type DayRow, type ZRow } from './day-report.js';

type LaterRow = DayRow & { z_number: number | null };

export class SinceClose {
  private readonly later;
  private readonly previousClose;

  constructor(db: Db) {
    // Results not counted in this Z or before it (counted in a later Z, or in none yet).
    this.later = db.prepare(
      `SELECT r.*, z.number AS z_number FROM (${DAY_ROWS_SQL} WHERE t.environment = ? AND (t.z_report_id IS NULL OR t.z_report_id > ?)) r
       LEFT JOIN z_reports z ON z.id = r.z_report_id ORDER BY r.completed_at`,
    );
    this.previousClose = db.prepare('SELECT max(closed_at) AS at FROM z_reports WHERE environment = ? AND number < ?');
  }

  lines(z: ZRow, report: DayReport): SinceCloseLine[] {
    const since = (this.previousClose.get(z.environment, z.number) as { at: number | null }).at ?? -Infinity;
    const listed = new Map(report.awaiting.map((a) => [a.merchantRef, a]));
    const found = new Map<string, SinceCloseLine>();
    for (const row of this.later.iterate(z.environment, z.id) as Iterable<LaterRow>) {
      const ref = row.client_reference;
      const entry = ref === null ? undefined : listed.get(ref);
      const start = startOf(row);
      if (!entry && (start >= z.closed_at || start < since)) continue;
      found.set(ref ?? row.reference, {
        merchantRef: ref,
        msisdn: displayMsisdn(row.msisdn),
        amount: formatAmount(row.amount),
        listedAs: entry?.status ?? 'not listed',
        status: row.status,
        completedAt: new Date(row.completed_at).toISOString(),
        settledByHand: row.settled_by_hand === 1,
        countedIn: row.z_number === null ? null : zLabel(row.z_number),
      });
    }
    const waiting: SinceCloseLine[] = report.awaiting
      .filter((a) => !found.has(a.merchantRef))
      .map((a) => ({
        merchantRef: a.merchantRef,
        msisdn: a.msisdn,
        amount: a.amount,
        listedAs: a.status,
        status: null,
        completedAt: null,
        settledByHand: false,
        countedIn: null,
      }));
    return [...found.values(), ...waiting];
  }
}
