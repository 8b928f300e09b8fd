/**
 * The owner's phone links (spread into `ipcContract`): `owner-links:create|list|revoke|revokeDevice|invite`, the owner only. The core asks the environment's relay with the till token; the link's token comes back
 * once, in `url`, for the QR code and the text the owner copies, and is never stored by the till.
 */
import { z } from 'zod';
import { environmentSchema } from '../domain-schemas.js';

/** A phone that opened a link (its name read from its user agent by the relay). */
export const ownerDeviceViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  revokedAt: z.string().nullable(),
});

export const ownerLinkViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  environment: environmentSchema,
  timeZone: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** Its phones (a relay from before phones were listed answers none). */
  devices: z.array(ownerDeviceViewSchema).default([]),
});
export type OwnerLinkView = z.infer<typeof ownerLinkViewSchema>;

const linkId = z.string().regex(/^ol_[A-Za-z0-9_-]{12}$/, 'not a link id');

export const ownerLinksChannels = {
  /** A new link for the active environment (or the one named), labelled for the phone it goes to. */
  'owner-links:create': {
    request: z
      .object({
        label: z.string().trim().min(1, 'Give the link a name, such as "Auntie Efua\'s phone"').max(60, 'At most 60 characters'),
        environment: environmentSchema.optional(),
      })
      .strict(),
    response: z.object({ link: ownerLinkViewSchema, url: z.string() }),
  },
  /** Every link of both environments' relays (those configured), newest first. */
  'owner-links:list': {
    request: z.object({}).strict(),
    response: z.object({ links: z.array(ownerLinkViewSchema), problems: z.array(z.string()) }),
  },
  /** Turns a link off at once. */
  'owner-links:revoke': {
    request: z.object({ id: linkId, environment: environmentSchema }).strict(),
    response: z.object({ ok: z.literal(true) }),
  },
  /** Turns one phone of a link off at once; the link's other phones stay in. */
  'owner-links:revokeDevice': {
    request: z
      .object({ id: linkId, deviceId: z.string().regex(/^od_[A-Za-z0-9_-]{12}$/, 'not a phone id'), environment: environmentSchema })
      .strict(),
    response: z.object({ ok: z.literal(true) }),
  },
  /** A new one-time invitation for a link that is still on (another phone, or a phone that lost its access); earlier phones stay in. */
  'owner-links:invite': {
    request: z.object({ id: linkId, environment: environmentSchema }).strict(),
    response: z.object({ url: z.string(), expiresAt: z.string() }),
  },
} as const;
