/**
 * The operator's side of the owner's phone links on PostgreSQL: list a merchant's links
 * and turn one off, from the CLI (`relay owner-link list|revoke`) or the admin API. A link turned off
 * here records `revoked_by = 'operator'`, so its open pages say truthfully who did it; the change is
 * audited in the same transaction. Open pages on every instance hear it within their check interval.
 */
import type pg from 'pg';
import type { ListPage, OwnerLink, OwnerLinkRevoked } from '../../index.js';
import { inTransaction, type Db } from '../transaction.js';
import { audit, cliActor } from './audit.js';
import { LINK_COLUMNS, toLink } from '../owner-link-row.js';
import { checkMerchantId, requireMerchant, TenantError } from './merchant-ids.js';

/** A link id as the relay makes them (relay/http/owner/owner-links-api.ts). */
export const OWNER_LINK_ID = /^ol_[A-Za-z0-9_-]{12}$/;

/**
 * The merchant's links, newest first, turned-off ones too (never a token: only its hash is stored); a
 * page of them after the link `page.after` (its place read from its row, to the microsecond).
 */
export async function listOwnerLinks(db: Db, merchantId: string, page: ListPage = {}): Promise<OwnerLink[]> {
  checkMerchantId(merchantId);
  await requireMerchant(db, merchantId);
  const { rows } = await db.query(
    `SELECT ${LINK_COLUMNS} FROM owner_links WHERE merchant_id = $1
       AND ($2::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM owner_links WHERE id = $2 AND merchant_id = $1))
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [merchantId, page.after ?? null, page.limit ?? null],
  );
  // The hash of the till token that made a link stays inside the relay.
  return rows.map((r) => ({ ...toLink(r), createdByToken: null }));
}

/**
 * Turns a link off as the operator. A link already off stays as it was (who turned it off first is
 * kept) and nothing is audited; an unknown id is a TenantError ("No owner link …", answered 404).
 */
export async function revokeOwnerLink(pool: pg.Pool, id: string, actor = cliActor(), at = new Date()): Promise<OwnerLinkRevoked> {
  if (!OWNER_LINK_ID.test(id))
    throw new TenantError(`No owner link ${JSON.stringify(id).slice(0, 40)} (ids look like ol_ and 12 characters)`);
  return inTransaction(pool, async (client) => {
    const found = await client.query(`SELECT ${LINK_COLUMNS} FROM owner_links WHERE id = $1 FOR UPDATE`, [id]);
    if (!found.rows[0]) throw new TenantError(`No owner link ${id}`);
    const before = { ...toLink(found.rows[0]), createdByToken: null };
    if (before.revokedAt) return { link: before, changed: false };
    await client.query("UPDATE owner_links SET revoked_at = $2, revoked_by = 'operator' WHERE id = $1", [id, at.toISOString()]);
    await audit(client, actor, {
      action: 'owner-link.revoke',
      merchantId: before.merchantId,
      target: id,
      detail: { environment: before.environment, label: before.label },
    });
    return { link: { ...before, revokedAt: at.toISOString(), revokedBy: 'operator' }, changed: true };
  });
}
