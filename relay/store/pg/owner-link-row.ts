/** A link's row on PostgreSQL, read the same by the links, the phones (owner-devices-pg.ts) and the operator's commands. */
import type { Environment } from '../../../shared/domain.js';
import type { OwnerLink, OwnerLinkRevoker } from '../owner-link.js';

export type LinkRow = {
  id: string;
  merchant_id: string;
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
  'id, merchant_id, environment, label, time_zone, created_by, created_at, last_used_at, revoked_at, revoked_by, invite_expires_at, invite_used_at, created_by_token';
export const toLink = (row: LinkRow): OwnerLink => ({
  id: row.id,
  merchantId: row.merchant_id,
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
});
