/**
 * POST /v1/payments/initialize (spec 4.1 plus the project's decisions in docs/provider-contract.md):
 * required amount, callbackUrl, customer; optional merchantRef, description, metadata.
 */
import { z } from 'zod';
import { NETWORKS } from '../domain.js';
import { amountString, customerSchema, isoDateTimeSchema } from './transaction.js';

export const MERCHANT_REF = /^[A-Za-z0-9._:-]{1,64}$/;
export const MAX_DESCRIPTION = 140;
export const MAX_METADATA_BYTES = 4096;

export const initializeRequestSchema = z.strictObject({
  amount: amountString({ positive: true }),
  callbackUrl: z
    .string()
    .max(2048)
    .refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'callbackUrl must be an absolute http(s) URL'),
  customer: z.strictObject({
    msisdn: z.string().regex(/^233[0-9]{9}$/, 'customer.msisdn must be 233 followed by nine digits'),
    network: z.enum(NETWORKS, { message: 'customer.network must be MTN, TELECEL or AIRTELTIGO' }),
  }),
  merchantRef: z.string().regex(MERCHANT_REF, 'merchantRef must be 1-64 characters of A-Z a-z 0-9 . _ : -').optional(),
  description: z.string().max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`).optional(),
  metadata: z
    .record(z.string(), z.unknown())
    .refine(
      (value) => Buffer.byteLength(JSON.stringify(value), 'utf8') <= MAX_METADATA_BYTES,
      `metadata must be a JSON object of at most ${MAX_METADATA_BYTES} bytes`,
    )
    .optional(),
});
export type InitializeRequest = z.infer<typeof initializeRequestSchema>;

/** The 202 (or idempotent 200) answer. */
export const initializeResponseSchema = z.looseObject({
  data: z.looseObject({
    reference: z.string().min(1),
    clientReference: z.string().nullable(),
    status: z.literal('PENDING'),
    amount: amountString({ positive: true }),
    currency: z.literal('GHS'),
    customer: customerSchema,
    createdAt: isoDateTimeSchema,
  }),
});
export type InitializeResponse = z.infer<typeof initializeResponseSchema>;

/** GET /v1/accounts/resolve?msisdn=&network= */
export const resolveResponseSchema = z.looseObject({
  data: z.looseObject({
    msisdn: z.string(),
    network: z.string(),
    name: z.string(),
  }),
});
export type ResolveResponse = z.infer<typeof resolveResponseSchema>;
