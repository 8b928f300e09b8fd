/**
 * Who stopped waiting for a payment: its late result names them (and who started it) to whoever is at the
 * till when it comes, instead of telling a manager "you stopped waiting".
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 16,
  name: 'who stopped waiting',
  up: `
    ALTER TABLE payments ADD COLUMN stopped_by_name TEXT;
    `,
};
