/**
 * Admin tokens for the admin HTTP API: `at_` and 32 random bytes (base64url), shown once; only the
 * SHA-256 is stored. Revoking keeps the row (revoked_at) so the audit's actors stay explained.
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { relayTillSchema } from '../../../ops/index.js';
import { inTransaction, type Db } from '../transaction.js';
import { audit, cliActor } from './audit.js';
import { TenantError } from './merchant-ids.js';

export const ADMIN_TOKEN = /^at_[A-Za-z0-9_-]{43}$/;

export function hashAdminToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

function checkLabel(label: string): void {
  const r = relayTillSchema.shape.label.safeParse(label);
  if (!r.success) throw new TenantError(`--label: ${r.error.issues[0]?.message ?? 'invalid'}`);
}

/** A new admin token; returns it (to show once). A live token with the same label is refused. */
export async function createAdminToken(pool: pg.Pool, label: string, actor = cliActor()): Promise<string> {
  checkLabel(label);
  const token = `at_${randomBytes(32).toString('base64url')}`;
  await inTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `INSERT INTO admin_tokens (label, token_hash) VALUES ($1, $2) ON CONFLICT (label) WHERE revoked_at IS NULL DO NOTHING`,
      [label, hashAdminToken(token)],
    );
    if (!rowCount) throw new TenantError(`An admin token labelled "${label}" already exists (revoke it first)`);
    await audit(client, actor, { action: 'admin-token.create', target: label });
  });
  return token;
}

export async function revokeAdminToken(pool: pg.Pool, label: string, actor = cliActor()): Promise<boolean> {
  checkLabel(label);
  return inTransaction(pool, async (client) => {
    const { rowCount } = await client.query('UPDATE admin_tokens SET revoked_at = now() WHERE label = $1 AND revoked_at IS NULL', [label]);
    if (!rowCount) return false;
    await audit(client, actor, { action: 'admin-token.revoke', target: label });
    return true;
  });
}

export type AdminTokenSummary = { label: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };

export async function listAdminTokens(db: Db): Promise<AdminTokenSummary[]> {
  const { rows } = await db.query<{ label: string; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }>(
    'SELECT label, created_at, last_used_at, revoked_at FROM admin_tokens ORDER BY label, id',
  );
  return rows.map((r) => ({
    label: r.label,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  }));
}

/**
 * The label of a live admin token, or null. Its last use is written at most once a minute, so a burst
 * of admin calls costs no extra commit each.
 */
export async function authenticateAdmin(db: Db, token: string): Promise<string | null> {
  if (!ADMIN_TOKEN.test(token)) return null;
  const { rows } = await db.query<{ label: string }>(
    `WITH t AS (SELECT id, label, last_used_at FROM admin_tokens WHERE token_hash = $1 AND revoked_at IS NULL),
       touched AS (UPDATE admin_tokens a SET last_used_at = now() FROM t
                   WHERE a.id = t.id AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute'))
     SELECT label FROM t`,
    [hashAdminToken(token)],
  );
  return rows[0]?.label ?? null;
}
