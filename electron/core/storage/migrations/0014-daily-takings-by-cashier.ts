/**
 * Takings per cashier and the part settled by hand come from the daily rollup too: it is keyed also by who
 * started the payment (staff_key: their staff id, '' for nobody signed in) and whether it was settled by
 * hand, so a 30-day range reads a few hundred rollup rows instead of every transaction of the range. Rebuilt
 * from the transactions, by takings network (as transactions-store's rebuildRollupSql).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 14,
  name: 'daily rollup by cashier and by hand',
  up: `
    CREATE TABLE daily_takings_by_cashier (
      environment TEXT NOT NULL CHECK (environment IN ('test', 'live')),
      local_date TEXT NOT NULL,
      till_id TEXT NOT NULL,
      network TEXT NOT NULL,
      staff_key TEXT NOT NULL,
      by_hand INTEGER NOT NULL CHECK (by_hand IN (0, 1)),
      staff_name TEXT,
      succeeded INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      gross INTEGER NOT NULL,
      fees INTEGER NOT NULL,
      net INTEGER NOT NULL,
      PRIMARY KEY (environment, local_date, till_id, network, staff_key, by_hand)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO daily_takings_by_cashier (environment, local_date, till_id, network, staff_key, by_hand, staff_name,
      succeeded, failed, gross, fees, net)
    SELECT environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand, max(staff_name),
      sum(status = 'SUCCESS'), sum(status = 'FAILED'),
      sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END),
      sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END)
    FROM (SELECT t.*, CASE WHEN t.environment = 'test' AND t.network = 'SANDBOX' THEN
        coalesce((SELECT p.network FROM payments p WHERE p.merchant_ref = t.client_reference AND p.environment = t.environment), t.network)
      ELSE t.network END AS takings_network FROM transactions t)
    GROUP BY environment, local_date, till_id, takings_network, coalesce(staff_id, ''), settled_by_hand;
    DROP TABLE daily_takings;
    ALTER TABLE daily_takings_by_cashier RENAME TO daily_takings;
    `,
};
