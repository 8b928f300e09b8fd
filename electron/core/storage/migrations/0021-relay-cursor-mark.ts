/**
 * The receivedAt of the event at the cursor, which the till names when it resumes: a relay restored from
 * a backup numbers new events again over those the till read, under the same log id, and only the event
 * at the cursor tells them apart. NULL when the cursor is at no event the till read (0, or moved past a
 * pruned range), and for a cursor from before this version (the relay then cannot check it).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 21,
  name: 'relay cursor mark',
  up: `
    ALTER TABLE relay_cursor ADD COLUMN last_received_at TEXT;
  `,
};
