/** A viewer link of the owner's phone page, as both stores keep it (only its token's hash). */
import type { Environment } from '../../shared/domain.js';

/** Who turned a link off: the shop's owner (at the till) or the relay's operator (CLI, admin API). */
export type OwnerLinkRevoker = 'owner' | 'operator';

/** What an open page of a link turned off says (a link gone with its merchant counts as the operator's doing). */
export function revokedMessage(by: OwnerLinkRevoker | null): string {
  return by === 'operator'
    ? "This link was turned off by the relay's operator (the service that runs it), not by the shop owner"
    : 'This link was turned off by the shop owner';
}

/** A viewer link as the till lists it (never its token: only its hash is stored). */
export type OwnerLink = {
  id: string;
  merchantId: string;
  environment: Environment;
  label: string;
  timeZone: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: OwnerLinkRevoker | null;
  /** Until when its invitation may be exchanged by a phone (null: spent before invitations existed). */
  inviteExpiresAt: string | null;
  /** When a phone exchanged its invitation (null: not yet). */
  inviteUsedAt: string | null;
  /** The hash of the till token that made (or last re-invited) the link: the link ends with that token. */
  createdByToken: string | null;
};

export type NewOwnerLink = Omit<OwnerLink, 'lastUsedAt' | 'revokedAt' | 'revokedBy' | 'inviteUsedAt'> & { tokenHash: string };

/** A link's row as both stores keep it; PostgreSQL's adds the merchant's id (pg/owner-link-row.ts). */
export type LinkRow = {
  id: string;
  environment: Environment;
  label: string;
  time_zone: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: OwnerLinkRevoker | null;
  invite_expires_at: string | null;
  invite_used_at: string | null;
  created_by_token: string | null;
};

export const LINK_COLUMNS =
  'id, environment, label, time_zone, created_by, created_at, last_used_at, revoked_at, revoked_by, invite_expires_at, invite_used_at, created_by_token';

/** The merchant's link from its row (a link turned off before its revoker was kept counts as the owner's doing). */
export function toOwnerLink(row: LinkRow, merchantId: string): OwnerLink {
  return {
    id: row.id,
    merchantId,
    environment: row.environment,
    label: row.label,
    timeZone: row.time_zone,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_at ? (row.revoked_by ?? 'owner') : null,
    inviteExpiresAt: row.invite_expires_at,
    inviteUsedAt: row.invite_used_at,
    createdByToken: row.created_by_token,
  };
}

/**
 * A link of owner_links that maxOwnerLinksPerMerchant counts, as SQL (`at`: the placeholder of now): not turned
 * off, and a phone in or an invitation still open (one left to expire unused opens nothing and costs nothing).
 */
export const linkOn = (at: string) =>
  `revoked_at IS NULL AND (invite_used_at IS NOT NULL OR invite_expires_at > ${at}
     OR EXISTS (SELECT 1 FROM owner_devices d WHERE d.link_id = owner_links.id))`;

/** The columns a new link is written with (PostgreSQL adds merchant_id), and `newLinkValues` in their order. */
export const NEW_LINK_COLUMNS =
  'id, token_hash, environment, label, time_zone, created_by, created_at, invite_expires_at, created_by_token';

export const newLinkValues = (link: NewOwnerLink) => [
  link.id,
  link.tokenHash,
  link.environment,
  link.label,
  link.timeZone,
  link.createdBy,
  link.createdAt,
  link.inviteExpiresAt,
  link.createdByToken,
];

/** What `revokersAmong` reads of a link's row. */
export type LinkRevokerRow = Pick<LinkRow, 'id' | 'revoked_at' | 'revoked_by'>;

/** Which of `ids` are off, and by whom, from the rows found of them: a link gone with its merchant counts as the operator's doing. */
export function revokersAmong(ids: string[], rows: LinkRevokerRow[]): Map<string, OwnerLinkRevoker> {
  const known = new Map(rows.map((r) => [r.id, r]));
  const off = new Map<string, OwnerLinkRevoker>();
  for (const id of ids) {
    const row = known.get(id);
    if (!row) off.set(id, 'operator');
    else if (row.revoked_at) off.set(id, row.revoked_by ?? 'owner');
  }
  return off;
}
