/**
 * The phones of the owner's links. A link's token is a one-time invitation: the first phone to hand it
 * over, before it expires, spends it and gets its own device credential (a cookie, never in a URL); a
 * second use opens nothing. Only hashes of invitations and credentials are stored. A device's credential
 * slides: each use moves its end DEVICE_DAYS on. Lifetimes and why: docs/security.md.
 */
import type { OwnerLink } from './owner-link.js';

/** How long an invitation may be exchanged: long enough to scan at the counter, short for a screenshot. */
export const INVITATION_MINUTES = 15;
/** A device unused this long is off; every use moves its end this far on. */
export const DEVICE_DAYS = 30;

export type OwnerDevice = {
  id: string;
  linkId: string;
  /** Read from the phone's user agent ("Android phone · Chrome"), neutralised. */
  name: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
};

export type NewOwnerDevice = Omit<OwnerDevice, 'revokedAt'> & { credentialHash: string };

/** A link's new invitation: its token's hash, until when it may be exchanged, the till token asking, and now. */
export type NewInvitation = { tokenHash: string; expiresAt: string; createdByToken: string; at: string };

/** Claimed: the phone is in. Not: the link as it stands (used, expired or off), or undefined (no such invitation). */
export type InvitationClaim = { claimed: true; link: OwnerLink } | { claimed: false; link: OwnerLink | undefined };

export interface OwnerDeviceStore {
  /**
   * Spends the invitation whose token hashes to `tokenHash` and registers `device` for its link, in one step:
   * of two phones racing with one invitation, one gets in.
   */
  claim(tokenHash: string, device: NewOwnerDevice, at: string): Promise<InvitationClaim>;
  /**
   * A new invitation for a link of the merchant that is still on (an unused older one stops working); the
   * link now ends with `createdByToken`. 'unknown' when the merchant has no such link on; 'full', and nothing
   * changed, when the link does not count at `invitation.at` (linkOn in owner-link.ts: its invitation expired
   * unused, no phone in) and the merchant's other links on are already `max`: the invitation would make it count
   * again. The count and the change are one step per merchant with createLink's, on every instance sharing the store.
   */
  invite(merchantId: string, linkId: string, invitation: NewInvitation, max: number): Promise<'invited' | 'full' | 'unknown'>;
  /** The device whose credential hashes to `credentialHash`, with its link (off ones too: the caller says why). */
  find(credentialHash: string): Promise<{ device: OwnerDevice; link: OwnerLink } | undefined>;
  /** A use: last seen now, and the credential's end moved on. */
  touch(id: string, at: string, expiresAt: string): Promise<void>;
  /** Every device of the merchant's links, oldest first. */
  list(merchantId: string): Promise<OwnerDevice[]>;
  /** Turns one phone off; false when the merchant's link has no such device. */
  revoke(merchantId: string, linkId: string, id: string, at: string): Promise<boolean>;
  /** Which of these devices are off at `at` (turned off, expired or gone): their open pages end. */
  offAmong(ids: string[], at: string): Promise<Set<string>>;
}

/** Why an invitation opened nothing, in the owner's words (undefined: no such invitation, a guess). */
export function invitationRefusal(link: OwnerLink, at: string): string | undefined {
  if (link.inviteUsedAt) return 'This link was already used on a phone. Ask the till for a new one.';
  if (!link.inviteExpiresAt || link.inviteExpiresAt <= at) {
    return `This link has expired: a link works for ${INVITATION_MINUTES} minutes after the till makes it. Ask the till for a new one.`;
  }
  return undefined;
}

/** A short name for a phone from its user agent: what the owner recognises in the till's list. */
export function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const kind = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? /Mobile/.test(ua)
          ? 'Android phone'
          : 'Android tablet'
        : /Windows/.test(ua)
          ? 'Windows computer'
          : /Macintosh/.test(ua)
            ? 'Mac'
            : /Linux/.test(ua)
              ? 'Linux computer'
              : 'Unknown device';
  const browser = /EdgA?\//.test(ua)
    ? 'Edge'
    : /SamsungBrowser\//.test(ua)
      ? 'Samsung Internet'
      : /OPR\/|Opera/.test(ua)
        ? 'Opera'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'Firefox'
          : /Chrome\/|CriOS\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : '';
  return browser ? `${kind} · ${browser}` : kind;
}

/** A phone's row as both stores keep it (the same columns on SQLite and PostgreSQL). */
export type DeviceRow = {
  id: string;
  link_id: string;
  name: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
};

export const toDevice = (r: DeviceRow): OwnerDevice => ({
  id: r.id,
  linkId: r.link_id,
  name: r.name,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});
