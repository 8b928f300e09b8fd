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
