/** The webhook the service sends (spec 6.2, 6.3). */
import { z } from 'zod';
import { isoDateTimeSchema, transactionSchema } from './transaction.js';
import { PUBLIC_KEY_ID } from './keys.js';

export const webhookBodySchema = z.looseObject({
  createdAt: isoDateTimeSchema,
  data: transactionSchema,
});
export type WebhookBody = z.infer<typeof webhookBodySchema>;

export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const KEY_ID_HEADER = 'x-service-key-id';
export const WEBHOOK_USER_AGENT = 'Service-Webhooks';

/** Headers as Node gives them (lower-case names). */
export const webhookHeadersSchema = z.looseObject({
  'content-type': z.string().regex(/^application\/json\b/i, 'Content-Type must be application/json'),
  'user-agent': z.string().optional(),
  [SIGNATURE_HEADER]: z.string().regex(/^v1=[0-9a-fA-F]{64}$/, 'X-Service-Signature must be v1=<64 hex digits>'),
  [TIMESTAMP_HEADER]: z.string().regex(/^[0-9]{1,12}$/, 'X-Service-Timestamp must be Unix seconds'),
  [KEY_ID_HEADER]: z.string().regex(PUBLIC_KEY_ID, 'X-Service-Key-Id must be a pk_… id'),
});
export type WebhookHeaders = z.infer<typeof webhookHeadersSchema>;
