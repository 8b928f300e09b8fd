/**
 * The relay's storage seam. Everything above it (the webhook receiver, the till API, the event
 * streams) knows only these types; relay/event-log.ts (reads) and relay/group-commit.ts (writes)
 * implement them on SQLite. A second store implements the same two interfaces and honours the
 * same rules:
 * - a delivery is committed durably before its waiter is settled (the 2xx follows the commit);
 * - one event per (environment, reference), for ever (a test delivery can never block a live one); a repeat is a duplicate or a conflict, never
 *   a second event, and it never uses up a sequence number (the log stays gap-free);
 * - sequence numbers ascend in commit order, and the log keeps its identity (logId) for life.
 */
import type { RelayEvent, RelayPage } from '../../shared/relay-wire.js';
import type { Environment } from '../../shared/domain.js';

/** A verified, validated delivery ready to be committed (made in relay/webhook-verify.ts). */
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
};

/** What committing one delivery did. `json` is the stored event, as pushed to tills. */
export type ApplyOutcome =
  | { kind: 'accepted'; seq: number; json: string }
  | { kind: 'duplicate'; seq: number; environment: Environment; outOfOrder: boolean; previousTimestamp: number }
  | { kind: 'conflict'; seq: number; storedEnvironment: Environment; fields: string[] };

/** One stored event as the stores return it for streaming (turned into JSON by `eventJson`). */
export type EventRow = {
  seq: number;
  reference: string;
  environment: Environment;
  key_id: string;
  received_at: string;
  webhook_created_at: string;
  transaction_json: string;
};

/** The outcome of `d` stored as event `seq`, with the event as tills will receive it. */
export function acceptedOutcome(seq: number, d: Delivery): ApplyOutcome {
  const json = eventJson({
    seq,
    reference: d.reference,
    environment: d.environment,
    key_id: d.keyId,
    received_at: d.receivedAt,
    webhook_created_at: d.webhookCreatedAt,
    transaction_json: d.transactionJson,
  });
  return { kind: 'accepted', seq, json };
}

/** The event as tills receive it (shared/relay-wire.ts), built from a row without parsing its transaction. */
export function eventJson(row: EventRow): string {
  return (
    `{"seq":${row.seq},"environment":${JSON.stringify(row.environment)},` +
    `"receivedAt":${JSON.stringify(row.received_at)},"webhookCreatedAt":${JSON.stringify(row.webhook_created_at)},` +
    `"keyId":${JSON.stringify(row.key_id)},"transaction":${row.transaction_json}}`
  );
}

export function rowToEvent(row: EventRow): RelayEvent {
  return JSON.parse(eventJson(row)) as RelayEvent;
}

/** Told once a delivery's fate is known: its committed outcome, or the commit's error. */
export interface CommitWaiter {
  settle(err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void;
}

/** Called once per commit, after it is durable and before any delivery of it is answered. */
export type CommitListener = (outcomes: Array<{ delivery: Delivery; outcome: ApplyOutcome }>, commitSize: number) => void;

/** The write side: where a verified delivery is committed. */
export interface DeliveryCommitter {
  /** Queues a delivery; `waiter.settle` is called once it is durable, or its commit failed. */
  enqueue(delivery: Delivery, waiter: CommitWaiter): void;
  /** True when deliveries wait for a commit window rather than the receiver's `flush`. */
  readonly windowed: boolean;
  /** Commits everything queued now. */
  flush(): void;
  /** Stops taking deliveries, commits and settles the queued ones, releases the store. */
  close(): Promise<void>;
}

/** The read side: paging, look-ups and the event streams' catch-up. */
export interface EventReader {
  /** This log's identity: sequence numbers mean something only within it. */
  readonly logId: string;
  lastSeq(): number;
  /** Stored events after `after`, in sequence order, optionally one environment only. */
  rowsAfter(after: number, limit: number, environment?: Environment): EventRow[];
  page(after: number, limit: number, environment?: Environment): RelayPage;
  /** The event for `reference` in `environment`; without one, the latest of the two. */
  getByReference(reference: string, environment?: Environment): RelayEvent | undefined;
  getByClientReference(clientReference: string, environment?: Environment): RelayEvent | undefined;
  /** A cheap read of the store; the problem when it cannot be read (for /healthz). */
  probe(): string | null;
}
