/**
 * The operator's administration of a store that keeps merchants, keys and tokens itself (PostgreSQL):
 * what the admin API asks of it, and what it answers. Every change names its actor (`admin:<token id>`)
 * and is audited by the store in the same transaction. A store whose keys and tokens come from its
 * config file (SQLite) has none, and says so (`RelayStore.administration()`).
 */
import type { OwnerLink } from './owner-view.js';

export type MerchantSummary = {
  id: string;
  name: string | null;
  lastSeq: number;
  keys: number;
  tokens: number;
  createdAt: string;
  suspendedAt: string | null;
};

export type KeySummary = {
  publicId: string;
  merchantId: string;
  environment: 'test' | 'live';
  createdAt: string;
  lastUsedAt: string | null;
};

export type TokenSummary = { merchantId: string; label: string; createdAt: string; lastUsedAt: string | null };

export type AuditRow = {
  id: number;
  at: string;
  actor: string;
  action: string;
  merchantId: string | null;
  target: string | null;
  detail: unknown;
};

export type UsageDay = {
  day: string;
  deliveries: number;
  duplicates: number;
  rejections: Record<string, number>;
  tillsConnected: number;
  lastDeliveryAt: string | null;
};

export type OwnerLinkRevoked = { link: OwnerLink; changed: boolean };

/** A service key whose stored secret does not open with the master key: set aside, named in the health details. */
export type UnreadableKey = { publicId: string; merchantId: string };

/**
 * A page of a list: up to `limit` items after the item whose place in the list's order is `after`
 * (a merchant's or key's id, `<merchant id> <label>` for a till, a link's id, an audit line's number).
 */
export type ListPage = { after?: string; limit?: number };

/** Who an admin token is, or why it is refused (counted and logged by the admin listener). */
export type AdminAuth =
  | { ok: true; tokenId: number; label: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired'; tokenId?: number };

/**
 * Each method checks its input and throws the store's plain error for a bad one (an unknown merchant,
 * a taken label…), which the admin API answers as 400, 404 or 409.
 */
export interface Administration {
  /** Who the admin token `token` is, or why it is refused. */
  authenticate(token: string): Promise<AdminAuth>;
  /** Every merchant (or the one named), with its counts, by id. */
  listMerchants(only?: string, page?: ListPage): Promise<MerchantSummary[]>;
  /** Throws unless the merchant exists. */
  requireMerchant(id: string): Promise<void>;
  addMerchant(id: string, name: string | undefined, actor: string): Promise<void>;
  /** Refused while acknowledged events were read by no till, unless `discardUnread` is their count. */
  removeMerchant(id: string, actor: string, options?: { discardUnread?: number }): Promise<{ events: number; discardedUnread: number }>;
  /** Whether the merchant's state changed. */
  setSuspended(id: string, suspended: boolean, actor: string): Promise<boolean>;
  /** Each renewed log's new identity, by merchant. */
  renewLogIds(which: { merchantId: string } | 'all', actor: string): Promise<Map<string, string>>;
  listKeys(merchantId: string, page?: ListPage): Promise<KeySummary[]>;
  /** Seals the secret with the master key before it is stored. */
  addKey(merchantId: string, publicId: string, secret: string, actor: string): Promise<void>;
  /** The merchant the key belonged to, or null when there was no such key. */
  removeKey(publicId: string, actor: string): Promise<{ merchantId: string } | null>;
  listTokens(merchantId?: string, page?: ListPage): Promise<TokenSummary[]>;
  /** A new till token, to show once: only its hash is kept. */
  createToken(merchantId: string, label: string, actor: string): Promise<string>;
  /** Whether a live token had that label. */
  revokeToken(merchantId: string, label: string, actor: string): Promise<boolean>;
  listOwnerLinks(merchantId: string, page?: ListPage): Promise<OwnerLink[]>;
  revokeOwnerLink(id: string, actor: string): Promise<OwnerLinkRevoked>;
  /** The merchant's usage per day, newest first, for the last `days` days. */
  usage(merchantId: string, days: number): Promise<UsageDay[]>;
  /** The newest audit lines first (of one merchant when given); `after`: older than that line. */
  listAudit(filter: { merchantId?: string } & ListPage): Promise<AuditRow[]>;
}
