/**
 * A merchant's id, checked, and the error every tenant command says plainly. Without zod: the CLI's
 * `merchant list`, `key list` and `token list` load only this, not the schemas of tenants.ts.
 */
import type { Db } from '../transaction.js';

export const MERCHANT_ID = /^MCH_[A-Za-z0-9_-]{1,60}$/;

export class TenantError extends Error {
  override name = 'TenantError';
}

/** `flag`: where the operator gave the id (`--id` for merchant add, `--merchant` elsewhere). */
export function checkMerchantId(id: string, flag = '--merchant'): void {
  if (!MERCHANT_ID.test(id)) throw new TenantError(`${flag}: must look like MCH_ followed by letters, digits, _ or - (at most 60)`);
}

export async function requireMerchant(db: Db, id: string): Promise<void> {
  checkMerchantId(id);
  const { rowCount } = await db.query('SELECT 1 FROM merchants WHERE id = $1', [id]);
  if (!rowCount) throw new TenantError(`No merchant ${id} (add it first: momo-relay merchant add --id ${id})`);
}
