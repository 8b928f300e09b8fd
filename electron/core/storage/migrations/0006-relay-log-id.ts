/**
 * The relay log the cursor belongs to (the relay's logId). A relay whose database was wiped or replaced
 * numbers from 1 again under a new logId; the till then reads it again from 0. NULL until the relay first
 * names its log (a cursor from before this version is kept and adopted).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 6,
  name: 'relay log id with the cursor',
  up: `
    ALTER TABLE relay_cursor ADD COLUMN log_id TEXT;
  `,
};
