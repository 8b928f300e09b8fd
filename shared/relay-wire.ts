/**
 * What the relay sends to tills: the durable event log's entries, over SSE (`GET /v1/events`,
 * `event: transaction`, `id: <seq>`, `data: <RelayEvent JSON>`) and paged (`GET /v1/transactions`).
 * Tills authenticate with `Authorization: Bearer <relay token>`.
 *
 * Sequence numbers only mean something within one log. Each log has an identity (`logId`), made
 * once with the relay's database: a wiped or replaced relay has a new one and numbers from 1 again.
 * It is in every page, in the `X-Relay-Log-Id` header of every till answer, and in the `hello`
 * event that opens every stream; a till whose stored cursor belongs to another log (or is ahead of
 * the log's last sequence) starts again from 0.
 */
import { z } from 'zod';
import { environmentSchema } from './domain-schemas.js';
import { isoDateTimeSchema, transactionSchema } from './wire/transaction.js';

export const relayEventSchema = z.object({
  /** Monotonically increasing sequence number in the relay's log (the SSE id). */
  seq: z.number().int().positive(),
  /** test when the delivery was signed by a pk_test_ key (and data.sandbox === true), live otherwise. */
  environment: environmentSchema,
  /** When the relay committed the delivery. */
  receivedAt: isoDateTimeSchema,
  /** The webhook body's createdAt. */
  webhookCreatedAt: isoDateTimeSchema,
  /** The service key that signed it (pk_…), safe to show. */
  keyId: z.string(),
  transaction: transactionSchema,
});
export type RelayEvent = z.infer<typeof relayEventSchema>;

/** The relay log's identity: 16 random bytes, base64url. */
export const relayLogIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'A relay log id is 16 to 64 base64url characters');

/** The header carrying the log id on every authenticated till answer (`GET /v1/events`, `GET /v1/transactions*`). */
export const RELAY_LOG_ID_HEADER = 'x-relay-log-id';

/**
 * The first event of every stream: `event: hello`, `data: <RelayHello JSON>` (no `id:`, so it never
 * moves Last-Event-ID). `lastSeq` is the log's highest sequence when the stream opened.
 */
export const relayHelloSchema = z.object({
  logId: relayLogIdSchema,
  lastSeq: z.number().int().nonnegative(),
});
export type RelayHello = z.infer<typeof relayHelloSchema>;

/**
 * `GET /v1/transactions?after=<seq>` with `after` beyond the log's last sequence answers 409 with
 * this code (and `lastSeq`, `logId` in the body): the cursor belongs to a log that is gone.
 */
export const CURSOR_AHEAD = 'CURSOR_AHEAD';
export const relayCursorAheadSchema = z.object({
  error: z.object({ code: z.literal(CURSOR_AHEAD), message: z.string(), logId: relayLogIdSchema, lastSeq: z.number().int().nonnegative() }),
});

/**
 * A till resuming after `after` also names the event it read there: `afterReceivedAt=<its receivedAt>`
 * (on `GET /v1/transactions` and `GET /v1/events`). When the log's event `after` was received at
 * another time, the log was restored from a backup (or otherwise rewound) and numbered again past it:
 * the till's cursor means nothing in it. Paging answers 409 with this code; the stream sends `reset`.
 */
export const CURSOR_FORKED = 'CURSOR_FORKED';
export const AFTER_RECEIVED_AT_PARAM = 'afterReceivedAt';
export const relayCursorForkedSchema = z.object({
  error: z.object({
    code: z.literal(CURSOR_FORKED),
    message: z.string(),
    logId: relayLogIdSchema,
    lastSeq: z.number().int().nonnegative(),
  }),
});

/**
 * `event: reset` on a stream (no `id:`), after `hello`: the stream does not read on from the till's
 * cursor but from `readFrom`. `restored`: the log was rewound past the cursor (see CURSOR_FORKED), it
 * reads again from 0. `pruned`: the events after the cursor up to `prunedThrough` were pruned.
 */
export const relayResetSchema = z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('restored'), logId: relayLogIdSchema, lastSeq: z.number().int().nonnegative(), readFrom: z.literal(0) }),
  z.object({
    reason: z.literal('pruned'),
    logId: relayLogIdSchema,
    lastSeq: z.number().int().nonnegative(),
    prunedThrough: z.number().int().positive(),
    readFrom: z.number().int().positive(),
  }),
]);
export type RelayReset = z.infer<typeof relayResetSchema>;

/**
 * `GET /v1/transactions?after=<seq>` with `after` (not 0) below the log's pruned-through mark answers
 * 410 with this code: the events from `after + 1` to `prunedThrough` were pruned by the relay's
 * retention and cannot be sent. The till reads on from `prunedThrough` (the oldest kept event follows).
 */
export const CURSOR_PRUNED = 'CURSOR_PRUNED';
export const relayCursorPrunedSchema = z.object({
  error: z.object({
    code: z.literal(CURSOR_PRUNED),
    message: z.string(),
    logId: relayLogIdSchema,
    lastSeq: z.number().int().nonnegative(),
    prunedThrough: z.number().int().positive(),
  }),
});

/** `GET /v1/transactions?after=<seq>&limit=<n>&environment=<test|live>` */
export const relayPageSchema = z.object({
  /** The log these sequence numbers belong to. */
  logId: relayLogIdSchema,
  items: z.array(relayEventSchema),
  /** Pass as `after` for the next page. */
  nextAfter: z.number().int().nonnegative(),
  hasMore: z.boolean(),
});
export type RelayPage = z.infer<typeof relayPageSchema>;

/** A relay token: `rt_` + 43 base64url characters (32 random bytes). */
export const RELAY_TOKEN = /^rt_[A-Za-z0-9_-]{43}$/;
export const relayTokenSchema = z.string().regex(RELAY_TOKEN, 'A relay token looks like rt_ followed by 43 characters');
