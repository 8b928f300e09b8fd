/**
 * The `metadata` this till sends with each payment (the service echoes it unchanged in the webhook), so
 * every till of the merchant attributes a result to the till and the person who started it:
 * `till` (the till id), `tillName` (its name from Settings, so another till's takings name it),
 * `cashierId` and `cashier` (the staff member's id and display name; absent when nobody was signed in), and
 * `network` (the network the cashier charged: a TEST result names "SANDBOX" whatever the customer's, so
 * without it the shop's other tills could not count another till's TEST payment under its network).
 * The one place these fields are defined: docs/provider-contract.md records them.
 */
import { z } from 'zod';
import { MAX_METADATA_BYTES } from './initialize.js';
import { NETWORKS, type Network } from '../domain.js';

export type Cashier = { id: string; name: string };
export type TillLabel = { id: string; name: string };

/** The most this till's metadata may take (JSON, UTF-8): five bounded strings, well inside MAX_METADATA_BYTES. */
export const PAYMENT_METADATA_MAX_BYTES = 1024;

const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

const fields = {
  till: z.string().min(1).max(64),
  tillName: z.string().min(1).max(40),
  cashierId: z.string().min(1).max(64),
  cashier: z.string().min(1).max(40),
  network: z.enum(NETWORKS),
};

/** What this till sends: checked before it leaves, so a payment never carries more than the bound. */
export const paymentMetadataSchema = z
  .strictObject({
    till: fields.till,
    tillName: fields.tillName.optional(),
    cashierId: fields.cashierId.optional(),
    cashier: fields.cashier.optional(),
    network: fields.network.optional(),
  })
  .refine((m) => (m.cashierId === undefined) === (m.cashier === undefined), 'cashierId and cashier go together')
  .refine(
    (m) => utf8Bytes(m) <= Math.min(PAYMENT_METADATA_MAX_BYTES, MAX_METADATA_BYTES),
    `metadata over ${PAYMENT_METADATA_MAX_BYTES} bytes`,
  );
export type PaymentMetadata = z.infer<typeof paymentMetadataSchema>;

/** A till name as sent: trimmed, cut to the field's 40 (a settings.json edited by hand is not refused at the counter). */
function sentName(name: string): string | undefined {
  const chars = [...name.trim()];
  while (chars.join('').length > 40) chars.pop();
  return chars.join('') || undefined;
}

export function paymentMetadata(till: TillLabel, cashier: Cashier | null, network?: Network): PaymentMetadata {
  const tillName = sentName(till.name);
  return paymentMetadataSchema.parse({
    till: till.id,
    ...(tillName ? { tillName } : {}),
    ...(cashier ? { cashierId: cashier.id, cashier: cashier.name } : {}),
    ...(network ? { network } : {}),
  });
}

// Echoed metadata is read field by field, loosely: a payment made by an older till, or by another system
// of the merchant, may carry some of these fields, none, or others.
const echoedCashier = z.looseObject({ cashierId: fields.cashierId, cashier: fields.cashier });
const echoedTill = z.looseObject({ till: fields.till, tillName: fields.tillName });

/** The cashier named in echoed metadata, or null (another system's payment, or nobody signed in). */
export function cashierOf(metadata: unknown): Cashier | null {
  const parsed = echoedCashier.safeParse(metadata);
  return parsed.success ? { id: parsed.data.cashierId, name: parsed.data.cashier } : null;
}

/** The till (id and name) named in echoed metadata, or null (an older till's payment, or another system's). */
export function tillOf(metadata: unknown): TillLabel | null {
  const parsed = echoedTill.safeParse(metadata);
  return parsed.success ? { id: parsed.data.till, name: parsed.data.tillName } : null;
}

const echoedNetwork = z.looseObject({ network: fields.network });

/** The network the cashier charged, from echoed metadata, or null (an older till's payment, another system's, or not a network). */
export function chargedNetworkOf(metadata: unknown): Network | null {
  const parsed = echoedNetwork.safeParse(metadata);
  return parsed.success ? parsed.data.network : null;
}
