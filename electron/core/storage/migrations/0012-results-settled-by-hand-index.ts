/**
 * The few results settled by hand, found without reading every transaction: a day close looks for those the
 * service confirmed with other figures than the hand's after a Z counted the hand's (day-corrections.ts).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 12,
  name: 'results settled by hand indexed',
  up: `
    CREATE INDEX transactions_by_hand ON transactions (environment, z_report_id) WHERE settled_by_hand = 1;
    `,
};
