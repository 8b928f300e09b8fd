/**
 * A TEST result says "SANDBOX" on the wire whatever network the customer is on; one of this till's own
 * payments now counts in takings under the network the cashier charged (as inserts do from this version on).
 * Rebuild the TEST rollup once; LIVE keeps the service's own network and is not touched.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 4,
  name: 'TEST takings by the charged network',
  up: `
    DELETE FROM daily_takings WHERE environment = 'test';
    INSERT INTO daily_takings (environment, local_date, till_id, network, succeeded, failed, gross, fees, net)
      SELECT environment, local_date, till_id, takings_network,
        sum(status = 'SUCCESS'), sum(status = 'FAILED'),
        sum(CASE WHEN status = 'SUCCESS' THEN amount ELSE 0 END),
        sum(CASE WHEN status = 'SUCCESS' THEN fee ELSE 0 END),
        sum(CASE WHEN status = 'SUCCESS' THEN net ELSE 0 END)
      FROM (
        SELECT t.*, CASE WHEN t.network = 'SANDBOX' THEN
            coalesce((SELECT p.network FROM payments p WHERE p.merchant_ref = t.client_reference AND p.environment = 'test'), t.network)
          ELSE t.network END AS takings_network
        FROM transactions t WHERE t.environment = 'test'
      )
      GROUP BY environment, local_date, till_id, takings_network;
  `,
};
