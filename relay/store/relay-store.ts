/**
 * What the relay's HTTP side needs from where events, keys and tokens are kept. Two implementations:
 * SQLite (one merchant, keys and tokens from the config file; the embedded default) and PostgreSQL
 * (many merchants, keys and tokens in the database, several instances on one database).
 *
 * Every read and commit names its merchant: a till's token decides it, and nothing outside that
 * merchant's log can be read with it. Sequence numbers are per merchant and gapless.
 */
import type { Environment } from '../../shared/domain.js';
import type { RelayEvent } from '../../shared/relay-wire.js';
import type { ApplyOutcome, CommitWaiter, Delivery, EventRow } from './events.js';

/** The one tenant of a single-merchant (SQLite) relay. */
export const SOLE_MERCHANT = 'MCH_default';

export type StoreKind = 'sqlite' | 'postgres';

/** A service key as the receiver needs it: its secret, in memory only, and whose deliveries it signs. */
export type ServiceKey = { publicId: string; secret: string; merchantId: string };

/** The till a token belongs to. */
export type TillIdentity = { merchantId: string; label: string; tokenHash: string };

/** A verified delivery, with the merchant its key belongs to. */
export type TenantDelivery = Delivery & { merchantId: string };

export type CommitReport = Array<{ delivery: TenantDelivery; outcome: ApplyOutcome }>;

export interface StoreListener {
  /** This instance committed these deliveries (durably; before any of them is answered). */
  committed(report: CommitReport): void;
  /** The merchant's log reaches `lastSeq`: committed by another instance (or seen again by the catch-up). */
  advanced(merchantId: string, lastSeq: number): void;
  /** Keys or tokens changed: streams of tokens that are no longer valid must end. */
  authChanged(): void;
}

export interface RelayStore {
  readonly kind: StoreKind;
  /** The key that signed a delivery (from memory: no I/O on the hot path). */
  findKey(publicId: string): ServiceKey | undefined;
  /** The till whose token hashes to `tokenHash` (`sha256:<hex>`), or undefined. */
  findTill(tokenHash: string): TillIdentity | undefined;
  /** Queues a delivery for its merchant's next group commit; the waiter hears once it is durable (or failed). */
  enqueue(delivery: TenantDelivery, waiter: CommitWaiter): void;
  /** Starts the commits of everything queued (called once per event-loop turn by the receiver). */
  flush(): void;
  /** The identity of a merchant's log. */
  logId(merchantId: string): string;
  /** The highest committed sequence of a merchant's log, read from the store. */
  lastSeq(merchantId: string): Promise<number>;
  rowsAfter(merchantId: string, after: number, limit: number, environment?: Environment): Promise<EventRow[]>;
  /** The event of a reference (the latest when test and live share it and no environment is given). */
  byReference(merchantId: string, reference: string, environment?: Environment): Promise<RelayEvent | undefined>;
  /** The event of a till's merchantRef (the latest when test and live share it and no environment is given). */
  byClientReference(merchantId: string, clientReference: string, environment?: Environment): Promise<RelayEvent | undefined>;
  /** Whether deliveries can be committed now (false: /healthz fails, deliveries get 503). */
  health(): Promise<{ ok: boolean; reason?: string }>;
  /** Merchants whose logs some till is reading here: a periodic catch-up looks at them. */
  watch(listener: StoreListener, watched: () => Iterable<string>): void;
  /** Commits and answers what is queued, then closes. */
  close(): Promise<void>;
}
