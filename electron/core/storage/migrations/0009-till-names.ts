/**
 * The names of the merchant's tills, from the metadata each result echoes (payment-metadata.ts): the
 * latest result's name wins, so a renamed till is named anew. This till's own name stays in Settings.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 9,
  name: 'till names',
  up: `
    CREATE TABLE till_names (
      till_id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      seen_at INTEGER NOT NULL
    ) STRICT;
    `,
};
