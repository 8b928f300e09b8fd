/**
 * The append-only audit log: who did what and when. SQLite triggers refuse any UPDATE or DELETE of a
 * row. Settings changes name the fields that changed, never their values; PINs never appear.
 */
import type { AuditAction, AuditEntry } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { csvCell, csvFile, csvLocalDateAndTime } from '../../../shared/csv.js';
import { formatReceiptNo } from '../../../shared/receipt-number.js';

export type Actor = { id: string; name: string } | null;

type AuditRow = { id: number; at: number; actor_id: string | null; actor_name: string | null; action: AuditAction; detail: string };

export type AuditQuery = { action?: AuditAction; actorId?: string; from?: number; to?: number; limit?: number };

export class AuditLog {
  private readonly insert;
  private readonly receiptOf;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.insert = db.prepare('INSERT INTO audit_log (at, actor_id, actor_name, action, detail) VALUES (?, ?, ?, ?, ?)');
    this.receiptOf = db.prepare('SELECT receipt_no FROM payments WHERE id = ?');
  }

  record(actor: Actor, action: AuditAction, detail = ''): void {
    this.insert.run(this.now(), actor?.id ?? null, actor?.name ?? null, action, detail.slice(0, 500));
  }

  list(query: AuditQuery): AuditEntry[] {
    const where: string[] = [];
    const params: Array<string | number> = [];
    const filter = (clause: string, value: string | number | undefined) => {
      if (value === undefined) return;
      where.push(clause);
      params.push(value);
    };
    filter('action = ?', query.action);
    filter('actor_id = ?', query.actorId);
    filter('at >= ?', query.from);
    filter('at < ?', query.to);
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    const rows = this.db.prepare(sql).all(...params, query.limit ?? 500) as AuditRow[];
    return rows.map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      actorId: r.actor_id,
      actorName: r.actor_name,
      action: r.action,
      detail: r.detail,
    }));
  }

  /**
   * The log as CSV: local_date and local_time in the till's time zone (read as a date and a time by a
   * spreadsheet; `at` stays UTC ISO), and receipt_no where an entry names a payment that has one (a hand
   * settlement made PAID: settle-by-hand.ts writes "payment <id> …").
   */
  exportCsv(query: AuditQuery, timeZone: string): string {
    const lines = ['id,at,actor_id,actor_name,action,detail,local_date,local_time,receipt_no'];
    for (const e of this.list({ ...query, limit: 100_000 })) {
      const [date, time] = csvLocalDateAndTime(Date.parse(e.at), timeZone);
      lines.push([e.id, e.at, e.actorId, e.actorName, e.action, e.detail, date, time, this.receiptNo(e)].map(csvCell).join(','));
    }
    return csvFile(lines);
  }

  private receiptNo(e: AuditEntry): string | null {
    const payment = e.action === 'settle_by_hand' ? /^payment (\S+) /.exec(e.detail)?.[1] : undefined;
    if (payment === undefined) return null;
    const row = this.receiptOf.get(payment) as { receipt_no: number | null } | undefined;
    return row?.receipt_no ? formatReceiptNo(row.receipt_no) : null;
  }
}
