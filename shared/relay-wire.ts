/**
 * What the relay sends to tills: the durable event log's entries, over SSE (`GET /v1/events`,
 * `event: transaction`, `id: <seq>`, `data: <RelayEvent JSON>`) and paged (`GET /v1/transactions`).
 * Tills authenticate with `Authorization: Bearer <relay token>`.
 */
import { z } from 'zod';
import { isoDateTimeSchema, transactionSchema } from './wire/transaction.js';

export const relayEnvironmentSchema = z.enum(['test', 'live']);

export const relayEventSchema = z.object({
  /** Monotonically increasing sequence number in the relay's log (the SSE id). */
  seq: z.number().int().positive(),
  /** test when the delivery was signed by a pk_test_ key (and data.sandbox === true), live otherwise. */
  environment: relayEnvironmentSchema,
  /** When the relay committed the delivery. */
  receivedAt: isoDateTimeSchema,
  /** The webhook body's createdAt. */
  webhookCreatedAt: isoDateTimeSchema,
  /** The service key that signed it (pk_…), safe to show. */
  keyId: z.string(),
  transaction: transactionSchema,
});
export type RelayEvent = z.infer<typeof relayEventSchema>;

/** `GET /v1/transactions?after=<seq>&limit=<n>&environment=<test|live>` */
export const relayPageSchema = z.object({
  items: z.array(relayEventSchema),
  /** Pass as `after` for the next page. */
  nextAfter: z.number().int().nonnegative(),
  hasMore: z.boolean(),
});
export type RelayPage = z.infer<typeof relayPageSchema>;

/** A relay token: `rt_` + 43 base64url characters (32 random bytes). */
export const RELAY_TOKEN = /^rt_[A-Za-z0-9_-]{43}$/;
export const relayTokenSchema = z.string().regex(RELAY_TOKEN, 'A relay token looks like rt_ followed by 43 characters');
