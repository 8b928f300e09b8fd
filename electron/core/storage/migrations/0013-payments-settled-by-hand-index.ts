/**
 * The payments ever settled by hand, few on any till: the takings CSV reads what the service later said of
 * them (confirmed, overridden) from this index once, instead of looking up every row's payment.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 13,
  name: 'payments settled by hand indexed',
  up: `
    CREATE INDEX payments_by_hand ON payments (environment, merchant_ref) WHERE hand_outcome IS NOT NULL;
    `,
};
