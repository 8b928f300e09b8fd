/**
 * The append-only audit log: who did what and when. SQLite triggers refuse any UPDATE or DELETE of a
 * row. Settings changes name the fields that changed, never their values; PINs never appear.
 */
import type { AuditAction, AuditEntry } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { csvCell, csvFile } from '../../../shared/csv.js';

export type Actor = { id: string; name: string } | null;

type AuditRow = { id: number; at: number; actor_id: string | null; actor_name: string | null; action: AuditAction; detail: string };

export type AuditQuery = { action?: AuditAction; actorId?: string; from?: number; to?: number; limit?: number };

export class AuditLog {
  private readonly insert;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {
    this.insert = db.prepare('INSERT INTO audit_log (at, actor_id, actor_name, action, detail) VALUES (?, ?, ?, ?, ?)');
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

  exportCsv(query: AuditQuery): string {
    const lines = ['id,at,actor_id,actor_name,action,detail'];
    for (const e of this.list({ ...query, limit: 100_000 })) {
      lines.push([e.id, e.at, e.actorId, e.actorName, e.action, e.detail].map(csvCell).join(','));
    }
    return csvFile(lines);
  }
}
