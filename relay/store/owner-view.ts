/**
 * The owner's view: what a phone link may read, and the viewer links themselves. Both
 * stores keep a per-merchant summary in hourly UTC buckets (environment, hour, till, cashier,
 * network: counts and integer pesewas), written by the commit from the row store/owner-summary.ts
 * works out, only for an event really stored (never a repeat), in the same transaction; a page's
 * figures for a day or 30 days read those buckets, never the events. Hours fold into the shop's local days at read time (`dayHours`), so one summary serves any
 * time zone (exact for zones a whole number of hours from UTC: docs/provider-contract.md).
 */
import type { Environment } from '../../shared/domain.js';
import type { OwnerDeviceStore } from './owner-devices.js';
import type { NewOwnerLink, OwnerLink, OwnerLinkRevoker } from './owner-link.js';

/** A stored event as `latest` returns it (relay-store.ts's EventRow is this type). */
export type OwnerEventRow = {
  seq: number;
  reference: string;
  environment: Environment;
  key_id: string;
  received_at: string;
  webhook_created_at: string;
  transaction_json: string;
};

/** One summary row, summed over some hours: counts and integer pesewas (only SUCCESS adds money). */
export type OwnerSums = { succeeded: number; failed: number; gross: number; fees: number; net: number };

export type OwnerBreakdownRow = OwnerSums & { tillId: string; tillName: string; cashierId: string; cashierName: string; network: string };

export { revokedMessage, type NewOwnerLink, type OwnerLink, type OwnerLinkRevoker } from './owner-link.js';
/** What each store offers the owner's view (relay/http/owner/). */
export interface OwnerViewStore {
  /** The invitations and the phones that exchanged them (store/owner-devices.ts). */
  readonly devices: OwnerDeviceStore;
  /**
   * Stores the link unless its merchant already has `max` links on at the link's `createdAt` (LINK_ON in
   * owner-link.ts): 'made', or 'full' and nothing stored. The count and the insert are one step per merchant
   * on every instance sharing the store, so links asked for at once through several instances stop at `max`.
   */
  createLink(link: NewOwnerLink, max: number): Promise<'made' | 'full'>;
  listLinks(merchantId: string): Promise<OwnerLink[]>;
  /** The link whose token hashes to `tokenHash` (revoked ones too: the page says it was turned off). */
  findLink(tokenHash: string): Promise<OwnerLink | undefined>;
  /** Turns a link off; false when the merchant has no such link. Turning it off again is harmless (the first revoker stays). */
  revokeLink(merchantId: string, id: string, at: string, by?: OwnerLinkRevoker): Promise<boolean>;
  touchLink(id: string, at: string): Promise<void>;
  /** Which of these links are turned off (or gone), and by whom: open pages of theirs are told at once. */
  revokedAmong(ids: string[]): Promise<Map<string, OwnerLinkRevoker>>;
  /**
   * The shop changed its time zone at the till: every link of the merchant counts days in `timeZone`
   * from now on (docs/security.md, "The owner's phone links"). Returns how many links changed.
   */
  setTimeZone(merchantId: string, timeZone: string): Promise<number>;
  /** Summary rows of [fromHour, toHour) (hours since the epoch, UTC), by till, cashier and network. */
  breakdown(merchantId: string, environment: Environment, fromHour: number, toHour: number): Promise<OwnerBreakdownRow[]>;
  /** Sums per hour of [fromHour, toHour). */
  hourly(merchantId: string, environment: Environment, fromHour: number, toHour: number): Promise<Array<OwnerSums & { hour: number }>>;
  /** The newest events of an environment, newest first. */
  latest(merchantId: string, environment: Environment, limit: number): Promise<OwnerEventRow[]>;
}

/** Column names of the summary, shared by both stores' SQL. */
export const SUMS_COLUMNS = 'sum(succeeded) AS succeeded, sum(failed) AS failed, sum(gross) AS gross, sum(fees) AS fees, sum(net) AS net';

export const zeroOwnerSums = (): OwnerSums => ({ succeeded: 0, failed: 0, gross: 0, fees: 0, net: 0 });

export function addOwnerSums(into: OwnerSums, row: OwnerSums): void {
  into.succeeded += Number(row.succeeded);
  into.failed += Number(row.failed);
  into.gross += Number(row.gross);
  into.fees += Number(row.fees);
  into.net += Number(row.net);
}
