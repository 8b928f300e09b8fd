/**
 * The `metadata` this till sends with each payment (the service echoes it unchanged in the webhook), so
 * every till of the merchant attributes a result to the till and the person who started it:
 * `till` (the till id), `cashierId` and `cashier` (the staff member's id and display name; absent when
 * nobody was signed in). At most about 150 bytes, far under MAX_METADATA_BYTES.
 */
import { z } from 'zod';

export type Cashier = { id: string; name: string };

const echoedSchema = z.looseObject({ cashierId: z.string().min(1).max(64), cashier: z.string().min(1).max(40) });

export function paymentMetadata(tillId: string, cashier: Cashier | null): Record<string, string> {
  return { till: tillId, ...(cashier ? { cashierId: cashier.id, cashier: cashier.name } : {}) };
}

/** The cashier named in echoed metadata, or null (another system's payment, or nobody signed in). */
export function cashierOf(metadata: unknown): Cashier | null {
  const parsed = echoedSchema.safeParse(metadata);
  return parsed.success ? { id: parsed.data.cashierId, name: parsed.data.cashier } : null;
}
