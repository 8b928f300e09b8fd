/**
 * The relay's storage seam: what the HTTP side (the webhook receiver, the till API, the event
 * streams) knows of where events, keys and tokens are kept. Two implementations, behind `RelayStore`:
 * store/sqlite/ (one merchant, keys and tokens from the config file; the embedded default) and
 * store/pg/ (many merchants, keys and tokens in the database, several instances on one database).
 * Both honour the same rules:
 * - every read and commit names its merchant: a till's token decides it, and nothing outside that
 *   merchant's log can be read with it;
 * - a delivery is committed durably before its waiter is settled (the 2xx follows the commit);
 * - one event per (environment, reference), for ever, pruned or not (a test delivery can never block a live one); a repeat is a duplicate or a conflict, never
 *   a second event, and it never uses up a sequence number (the log stays gap-free);
 * - sequence numbers are per merchant and ascend in commit order, and each log keeps its identity (logId) for life.
 */
import type { Environment } from '../../shared/domain.js';
import type { RelayEvent } from '../../shared/relay-wire.js';
import type { RelayConfig } from '../ops/index.js';
import type { Administration, UnreadableKey } from './administration.js';
import type { OwnerEventRow, OwnerViewStore } from './owner-view.js';
import type { OwnerSummaryRow } from './owner-summary.js';

export type StoreKind = 'sqlite' | 'postgres';

/** What a store answers when asked for something it does not do: why, in words for the operator. */
export type Unsupported = { readonly unsupported: string };

export function isUnsupported(answer: object): answer is Unsupported {
  return 'unsupported' in answer;
}

/**
 * A store of one merchant (SQLite): its keys and till tokens come from the config file, and its one
 * log's last sequence is known without waiting.
 */
export type OneMerchant = {
  readonly merchants: 'one';
  /** The log's last sequence, read synchronously (the start-up line and the metrics read it). */
  lastSeq(): number;
  /** Keys and tokens from a reloaded config file (streams of tokens no longer valid end). */
  setConfig(config: RelayConfig): void;
};

/**
 * A store of many merchants (PostgreSQL): keys and tokens are kept in the database, service secrets
 * sealed with the master key. Metrics and logs name each merchant.
 */
export type ManyMerchants = {
  readonly merchants: 'many';
  /** How many merchants it holds now. */
  count(): number;
  /** The service keys whose secret did not open with the master key (set aside, not served). */
  unreadableKeys(): UnreadableKey[];
  /** `previous` when this instance's own master key is not the relay's and it runs on a previous key it was given. */
  masterKeyInUse(): 'current' | 'previous';
  /** The highest sequence number of any merchant's log, read from the database (every instance commits into it). */
  highestSeq(): Promise<number>;
};

/** A verified, validated delivery ready to be committed (made in relay/http/webhooks/verify.ts). */
export type Delivery = {
  reference: string;
  clientReference: string | null;
  environment: Environment;
  keyId: string;
  receivedAt: string;
  webhookCreatedAt: string;
  /** The validated `data` object as JSON. */
  transactionJson: string;
  /** X-Service-Timestamp, Unix seconds. */
  timestamp: number;
  /** performance.now() when the request arrived (not stored; for the push-latency histogram). */
  arrivedAt: number;
  /** The owner's summary row, worked out by the receiver from the parsed transaction (else from transactionJson). */
  summary?: OwnerSummaryRow;
};

/** A verified delivery, with the merchant its key belongs to. */
export type TenantDelivery = Delivery & { merchantId: string };

/** What committing one delivery did. `json` is the stored event, as pushed to tills. */
export type ApplyOutcome =
  | { kind: 'accepted'; seq: number; json: string }
  | { kind: 'duplicate'; seq: number; environment: Environment; outOfOrder: boolean; previousTimestamp: number }
  | { kind: 'conflict'; seq: number; storedEnvironment: Environment; fields: string[] };

/** One stored event as the stores return it for streaming (turned into JSON by `eventJson`). */
export type EventRow = OwnerEventRow;

/** An event retention could not reduce to the hash of its final state: kept whole aside, and why. */
export type SetAside = { seq: number; reason: string };

/**
 * One merchant's part of a retention batch: the stretch of its log pruned, and the events in it set aside;
 * or, with `error`, why nothing of it was (the other merchants' batches go on).
 */
export type PrunedRange = {
  merchantId: string;
  fromSeq: number;
  throughSeq: number;
  count: number;
  setAside: SetAside[];
  error?: string;
};

/** Told once a delivery's fate is known: its committed outcome, or the commit's error. */
export interface CommitWaiter {
  settle(err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void;
}

/**
 * The error a waiter is settled with when its delivery could not be committed. `instanceWide`: nothing
 * can commit on this instance now (shutting down, database unreachable, disk full or locked): answered
 * 503. Otherwise it is this delivery's own trouble (a row the database refused): answered 500, which the
 * proxies do not count against the instance (relay/http/refusals.ts).
 */
export class CommitError extends Error {
  override name = 'CommitError';
  constructor(
    message: string,
    readonly instanceWide = false,
  ) {
    super(message);
  }
}

export type CommitReport = Array<{ delivery: TenantDelivery; outcome: ApplyOutcome }>;

/**
 * A service key as the receiver needs it: its secret, in memory only, and whose deliveries it signs.
 * `suspended`: its merchant is suspended (deliveries answered 403 MERCHANT_SUSPENDED, the service retries).
 */
export type ServiceKey = { publicId: string; secret: string; merchantId: string; suspended?: true };

/** The till a token belongs to (`suspended`: its merchant is suspended; its requests are refused with 503). */
export type TillIdentity = { merchantId: string; label: string; tokenHash: string; suspended?: true };

export interface StoreListener {
  /** This instance committed these deliveries (durably; before any of them is answered). */
  committed(report: CommitReport): void;
  /** The merchant's log reaches `lastSeq`: committed by another instance (or seen again by the catch-up). */
  advanced(merchantId: string, lastSeq: number): void;
  /** Keys or tokens changed: streams of tokens that are no longer valid must end. */
  authChanged(): void;
}

/** The one store interface: keys and tokens from memory, per-merchant commits, reads by cursor, health, news of commits and auth changes. */
export interface RelayStore {
  /** Which store, for reports (health, the start-up line); what it can do is asked below, never read from this. */
  readonly kind: StoreKind;
  /** One merchant or many, and what each can tell or take. */
  readonly tenancy: OneMerchant | ManyMerchants;
  /** The operator's administration of merchants, keys and tokens, or why this store has none. */
  administration(): Administration | Unsupported;
  /** The owner's phone view: its summary reads and viewer links (store/owner-view.ts). */
  readonly ownerView: OwnerViewStore;
  /** The key that signed a delivery (from memory: no I/O on the hot path). */
  findKey(publicId: string): ServiceKey | undefined;
  /** The till whose token hashes to `tokenHash` (`sha256:<hex>`), or undefined. */
  findTill(tokenHash: string): TillIdentity | undefined;
  /**
   * The till has read its merchant's log through `seq` (sent on its stream or in a page, or named as its
   * cursor): kept per token (`till_reads`, written every few seconds) so removing a merchant can tell what no till has read.
   */
  noteRead(till: TillIdentity, seq: number): void;
  /** Told of a refused delivery whose key is known (usage per merchant); optional. */
  noteRejection?(keyId: string, reason: string): void;
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
  /**
   * Retention: prunes one batch (at most `limit` per merchant) of the oldest events received before `before`
   * (ISO time), each leaving its reference behind so a repeat stays a repeat; returns each merchant's
   * stretch pruned. An event that cannot be reduced to its hash is set aside, named, and the batch goes on.
   */
  prune(before: string, limit: number): Promise<PrunedRange[]>;
  /** Every sequence number of the merchant's log up to this one was pruned (0: none). */
  prunedThrough(merchantId: string): Promise<number>;
  /** Whether deliveries can be committed now (false: /healthz fails, deliveries get 503). */
  health(): Promise<{ ok: boolean; reason?: string }>;
  /** Merchants whose logs some till is reading here: a periodic catch-up looks at them. */
  watch(listener: StoreListener, watched: () => Iterable<string>): void;
  /** Commits and answers what is queued, then closes. */
  close(): Promise<void>;
}
