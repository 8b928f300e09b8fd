/**
 * What an operator does to a merchant beyond adding it: list its keys and tokens (with when each was
 * last used), suspend, resume and remove it, and give logs a new identity after a restore. Every
 * change is audited in its own transaction and reaches every instance through the auth trigger.
 */
import type pg from 'pg';
import {
  newLogId,
  unreadRefusal,
  type KeySummary,
  type ListPage,
  type MerchantSummary,
  type TokenSummary,
  type UnreadEvents,
} from '../../index.js';
import { inTransaction, type Db } from '../transaction.js';
import { audit, cliActor } from './audit.js';
import { visibleName } from '../../../../shared/characters.js';
import { checkMerchantId, requireMerchant, TenantError } from './merchant-ids.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Every merchant (or the one named), with its counts, by id: a page of them after `page.after`. */
export async function listMerchants(db: Db, only?: string, page: ListPage = {}): Promise<MerchantSummary[]> {
  const { rows } = await db.query<{
    id: string;
    name: string | null;
    last_seq: string;
    keys: string;
    tokens: string;
    created_at: Date;
    suspended_at: Date | null;
  }>(
    `SELECT m.id, m.name, m.last_seq, m.created_at, m.suspended_at,
       (SELECT count(*) FROM service_keys k WHERE k.merchant_id = m.id) AS keys,
       (SELECT count(*) FROM till_tokens t WHERE t.merchant_id = m.id) AS tokens
     FROM merchants m WHERE ($1::text IS NULL OR m.id = $1) AND ($2::text IS NULL OR m.id > $2) ORDER BY m.id LIMIT $3`,
    [only ?? null, page.after ?? null, page.limit ?? null],
  );
  return rows.map((r) => ({
    id: r.id,
    // Written before names were checked, a name may still hold controls: shown escaped, never obeyed.
    name: r.name === null ? null : visibleName(r.name),
    lastSeq: Number(r.last_seq),
    keys: Number(r.keys),
    tokens: Number(r.tokens),
    createdAt: r.created_at.toISOString(),
    suspendedAt: r.suspended_at ? r.suspended_at.toISOString() : null,
  }));
}

export async function listKeys(db: Db, merchantId: string, page: ListPage = {}): Promise<KeySummary[]> {
  await requireMerchant(db, merchantId);
  const { rows } = await db.query<{ public_id: string; merchant_id: string; created_at: Date; last_used_at: Date | null }>(
    `SELECT public_id, merchant_id, created_at, last_used_at FROM service_keys
     WHERE merchant_id = $1 AND ($2::text IS NULL OR public_id > $2) ORDER BY public_id LIMIT $3`,
    [merchantId, page.after ?? null, page.limit ?? null],
  );
  return rows.map((r) => ({
    publicId: r.public_id,
    merchantId: r.merchant_id,
    environment: r.public_id.startsWith('pk_live_') ? 'live' : 'test',
    createdAt: r.created_at.toISOString(),
    lastUsedAt: iso(r.last_used_at),
  }));
}

/** The till tokens of one merchant, or of all of them, by merchant and label (`page.after`: `<merchant> <label>`). */
export async function listTokens(db: Db, merchantId?: string, page: ListPage = {}): Promise<TokenSummary[]> {
  if (merchantId !== undefined) await requireMerchant(db, merchantId);
  const gap = page.after?.indexOf(' ') ?? -1;
  const after = page.after === undefined ? null : gap < 0 ? [page.after, ''] : [page.after.slice(0, gap), page.after.slice(gap + 1)];
  const { rows } = await db.query<{ merchant_id: string; label: string; created_at: Date; last_used_at: Date | null }>(
    `SELECT merchant_id, label, created_at, last_used_at FROM till_tokens
     WHERE ($1::text IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR (merchant_id, label) > ($2, $3))
     ORDER BY merchant_id, label LIMIT $4`,
    [merchantId ?? null, after?.[0] ?? null, after?.[1] ?? null, page.limit ?? null],
  );
  return rows.map((r) => ({
    merchantId: r.merchant_id,
    label: r.label,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: iso(r.last_used_at),
  }));
}

/**
 * Suspends (or resumes) a merchant. While suspended its deliveries are answered 403 MERCHANT_SUSPENDED (the service
 * keeps retrying, for about ten minutes) and its tills' streams end. Returns false when it already was.
 */
export async function setSuspended(pool: pg.Pool, merchantId: string, suspended: boolean, actor = cliActor()): Promise<boolean> {
  checkMerchantId(merchantId);
  return inTransaction(pool, async (client) => {
    await requireMerchant(client, merchantId);
    const { rowCount } = await client.query(
      suspended
        ? 'UPDATE merchants SET suspended_at = now() WHERE id = $1 AND suspended_at IS NULL'
        : 'UPDATE merchants SET suspended_at = NULL WHERE id = $1 AND suspended_at IS NOT NULL',
      [merchantId],
    );
    if (!rowCount) return false;
    await audit(client, actor, { action: suspended ? 'merchant.suspend' : 'merchant.resume', merchantId });
    return true;
  });
}

/** The events of a merchant above the highest mark any of its tills has read (store/till-reads.ts). */
export async function unreadEvents(db: Db, merchantId: string): Promise<UnreadEvents> {
  const { rows } = await db.query<{ through: string; tills: string; count: string }>(
    `WITH marks AS (SELECT coalesce(max(read_seq), 0) AS through, count(*) AS tills FROM till_reads WHERE merchant_id = $1)
     SELECT m.through, m.tills, (SELECT count(*) FROM events e WHERE e.merchant_id = $1 AND e.seq > m.through) AS count FROM marks m`,
    [merchantId],
  );
  const r = rows[0];
  return { count: Number(r?.count ?? 0), readThrough: Number(r?.through ?? 0), tills: Number(r?.tills ?? 0) };
}

/**
 * Removes a merchant with its keys, tokens, usage and event log, in one transaction. Only a suspended
 * merchant can be removed, so a slip of the keyboard cannot delete a working shop's log; and while some of
 * its acknowledged events were read by no till, only when `discardUnread` names exactly how many.
 */
export async function removeMerchant(
  pool: pg.Pool,
  merchantId: string,
  actor = cliActor(),
  options: { discardUnread?: number } = {},
): Promise<{ events: number; discardedUnread: number }> {
  checkMerchantId(merchantId);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ suspended_at: Date | null }>('SELECT suspended_at FROM merchants WHERE id = $1 FOR UPDATE', [
      merchantId,
    ]);
    if (!rows[0]) throw new TenantError(`No merchant ${merchantId}`);
    if (!rows[0].suspended_at) {
      throw new TenantError(`Merchant ${merchantId} is not suspended: suspend it first (momo-relay merchant suspend --id ${merchantId})`);
    }
    // Suspended, the merchant commits nothing more, so the count cannot change before the delete below.
    const unread = await unreadEvents(client, merchantId);
    if (unread.count > 0 && options.discardUnread !== unread.count) throw new TenantError(unreadRefusal(merchantId, unread));
    const events = await client.query('DELETE FROM events WHERE merchant_id = $1', [merchantId]);
    // The owner's view goes with its events: the summary and the phone links (their pages then say the link is off).
    await client.query('DELETE FROM owner_hourly WHERE merchant_id = $1', [merchantId]);
    await client.query('DELETE FROM owner_links WHERE merchant_id = $1', [merchantId]);
    await client.query('DELETE FROM till_tokens WHERE merchant_id = $1', [merchantId]);
    await client.query('DELETE FROM service_keys WHERE merchant_id = $1', [merchantId]);
    await client.query('DELETE FROM merchants WHERE id = $1', [merchantId]);
    await audit(client, actor, {
      action: 'merchant.remove',
      merchantId,
      detail: { events: events.rowCount ?? 0, discardedUnread: unread.count },
    });
    return { events: events.rowCount ?? 0, discardedUnread: unread.count };
  });
}

/**
 * Gives a merchant's log (or every merchant's) a new identity, e.g. after restoring a backup: tills
 * whose cursor came from the old log then read the log again from 0. Returns the new ids.
 */
export async function renewLogIds(pool: pg.Pool, which: { merchantId: string } | 'all', actor = cliActor()): Promise<Map<string, string>> {
  if (which !== 'all') checkMerchantId(which.merchantId);
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id FROM merchants WHERE ($1::text IS NULL OR id = $1) ORDER BY id FOR UPDATE',
      [which === 'all' ? null : which.merchantId],
    );
    if (which !== 'all' && rows.length === 0) throw new TenantError(`No merchant ${which.merchantId}`);
    const ids = new Map(rows.map((r) => [r.id, newLogId()]));
    if (ids.size > 0) {
      await client.query(
        'UPDATE merchants m SET log_id = u.log_id FROM unnest($1::text[], $2::text[]) AS u(id, log_id) WHERE m.id = u.id',
        [[...ids.keys()], [...ids.values()]],
      );
    }
    await audit(client, actor, {
      action: 'log-id.new',
      merchantId: which === 'all' ? null : which.merchantId,
      detail: { merchants: ids.size },
    });
    return ids;
  });
}
