/**
 * Admin tokens for the admin HTTP API: `at_` and 32 random bytes (base64url), shown once; only the
 * SHA-256 is stored. Each has a number of its own (`id`), never reused: the audit names a token by it,
 * so a label given again after a revocation can't be mistaken for the old token. A token may carry an
 * expiry, after which it is refused like a revoked one. Revoking keeps the row (revoked_at) so the
 * audit's actors stay explained.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { AdminAuth } from '../../index.js';
import { newLabelProblem } from '../../../ops/index.js';
import { inTransaction, type Db } from '../transaction.js';
import { audit, cliActor } from './audit.js';
import { TenantError } from './merchant-ids.js';

export const ADMIN_TOKEN = /^at_[A-Za-z0-9_-]{43}$/;

export function hashAdminToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

function checkLabel(label: string): void {
  const problem = newLabelProblem(label);
  if (problem) throw new TenantError(`--label: ${problem}`);
}

/** How the audit names an admin token: by its number, which no later token takes. */
export const adminActor = (id: number): string => `admin:${id}`;

/**
 * A new admin token; returns it (to show once) with its number. A live token with the same label is
 * refused. `expiresAt`: refused from then on (none: until revoked).
 */
export async function createAdminToken(
  pool: pg.Pool,
  label: string,
  actor = cliActor(),
  options: { expiresAt?: Date } = {},
): Promise<string> {
  return (await createAdminTokenWithId(pool, label, actor, options)).token;
}

export async function createAdminTokenWithId(
  pool: pg.Pool,
  label: string,
  actor = cliActor(),
  options: { expiresAt?: Date } = {},
): Promise<{ token: string; id: number; expiresAt: string | null }> {
  checkLabel(label);
  const { expiresAt } = options;
  if (expiresAt && !(expiresAt.getTime() > Date.now())) throw new TenantError('--expires-in: the expiry must be in the future');
  const token = `at_${randomBytes(32).toString('base64url')}`;
  const id = await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO admin_tokens (label, token_hash, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (label) WHERE revoked_at IS NULL DO NOTHING RETURNING id`,
      [label, hashAdminToken(token), expiresAt ?? null],
    );
    if (!rows[0]) throw new TenantError(`An admin token labelled "${label}" already exists (revoke it first)`);
    const made = Number(rows[0].id);
    await audit(client, actor, {
      action: 'admin-token.create',
      target: String(made),
      detail: { label, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return made;
  });
  return { token, id, expiresAt: expiresAt?.toISOString() ?? null };
}

/** Revokes the live token with that label; false when there is none. */
export async function revokeAdminToken(pool: pg.Pool, label: string, actor = cliActor()): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      'UPDATE admin_tokens SET revoked_at = now() WHERE label = $1 AND revoked_at IS NULL RETURNING id',
      [label],
    );
    if (!rows[0]) return false;
    await audit(client, actor, { action: 'admin-token.revoke', target: rows[0].id, detail: { label } });
    return true;
  });
}

export type AdminTokenSummary = {
  id: number;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
};

/** Admin tokens in the order they were made, a page at a time: those after number `after`. */
export async function listAdminTokens(db: Db, page: { after?: number; limit?: number } = {}): Promise<AdminTokenSummary[]> {
  const { rows } = await db.query<{
    id: string;
    label: string;
    created_at: Date;
    last_used_at: Date | null;
    expires_at: Date | null;
    revoked_at: Date | null;
  }>('SELECT id, label, created_at, last_used_at, expires_at, revoked_at FROM admin_tokens WHERE id > $1 ORDER BY id LIMIT $2', [
    page.after ?? 0,
    page.limit ?? null,
  ]);
  return rows.map((r) => ({
    id: Number(r.id),
    label: r.label,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    expiresAt: r.expires_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  }));
}

/**
 * Who an admin token is, or why it is refused (`revoked`, `expired`, `unknown`: no such token). Its
 * last use is written at most once a minute, so a burst of admin calls costs no extra commit each.
 */
export async function authenticateAdmin(db: Db, token: string): Promise<AdminAuth> {
  if (!ADMIN_TOKEN.test(token)) return { ok: false, reason: 'malformed' };
  const { rows } = await db.query<{ id: string; label: string; refused: 'revoked' | 'expired' | null }>(
    `WITH t AS (SELECT id, label, last_used_at,
                  CASE WHEN revoked_at IS NOT NULL THEN 'revoked' WHEN expires_at <= now() THEN 'expired' END AS refused
                FROM admin_tokens WHERE token_hash = $1),
       touched AS (UPDATE admin_tokens a SET last_used_at = now() FROM t
                   WHERE a.id = t.id AND t.refused IS NULL
                     AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute'))
     SELECT id, label, refused FROM t`,
    [hashAdminToken(token)],
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.refused) return { ok: false, reason: row.refused, tokenId: Number(row.id) };
  return { ok: true, tokenId: Number(row.id), label: row.label };
}
