/**
 * The audit of every change to merchants, keys, tokens and admin tokens: who (an admin token's number,
 * or the operating-system user running the CLI), what, when. Written in the same transaction as the
 * change, so a change without its audit line cannot exist. Secrets and tokens never go in it.
 */
import { userInfo } from 'node:os';
import type { AuditRow, ListPage } from '../../index.js';
import type { Db } from '../transaction.js';

export type AuditEntry = { action: string; merchantId?: string | null; target?: string | null; detail?: Record<string, unknown> };

/** Who runs the CLI, for the audit: `cli:<user>`. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return `cli:uid-${process.getuid?.() ?? '?'}`;
  }
}

export async function audit(db: Db, actor: string, entry: AuditEntry): Promise<void> {
  await db.query('INSERT INTO admin_audit (actor, action, merchant_id, target, detail) VALUES ($1, $2, $3, $4, $5)', [
    actor,
    entry.action,
    entry.merchantId ?? null,
    entry.target ?? null,
    entry.detail ? JSON.stringify(entry.detail) : null,
  ]);
}

/** The newest audit lines first (of one merchant when given); `after`: the lines older than that line's number. */
export async function listAudit(db: Db, options: { merchantId?: string } & ListPage = {}): Promise<AuditRow[]> {
  const after = options.after === undefined ? null : /^[0-9]{1,18}$/.test(options.after) ? options.after : '0';
  const { rows } = await db.query<{
    id: string;
    at: Date;
    actor: string;
    action: string;
    merchant_id: string | null;
    target: string | null;
    detail: unknown;
  }>(
    `SELECT id, at, actor, action, merchant_id, target, detail FROM admin_audit
     WHERE ($1::text IS NULL OR merchant_id = $1) AND ($3::bigint IS NULL OR id < $3) ORDER BY id DESC LIMIT $2`,
    [options.merchantId ?? null, Math.min(Math.max(options.limit ?? 100, 1), 1001), after],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    merchantId: r.merchant_id,
    target: r.target,
    detail: r.detail,
  }));
}
