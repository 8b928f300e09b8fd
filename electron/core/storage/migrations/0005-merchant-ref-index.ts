/**
 * MerchantRef search per environment through its own index, so LIVE payments sharing the till's prefix can
 * never crowd TEST matches out of a search (or the reverse).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 5,
  name: 'merchantRef index per environment',
  up: `
    CREATE INDEX payments_env_merchant_ref ON payments (environment, merchant_ref);
  `,
};
