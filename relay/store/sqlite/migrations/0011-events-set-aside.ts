/**
 * Events retention could not reduce to the hash of their final state (a stored value that no longer reads
 * back as JSON): each is moved here whole when its turn to be pruned comes, so one row never stops
 * retention for the rest, and nothing is lost for the operator who looks into it. Its reference stays in
 * pruned_references (hashed from its text as stored), so a repeat is still not a new event.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 11,
  name: 'events set aside by retention',
  up: `
  CREATE TABLE events_set_aside (
    seq INTEGER PRIMARY KEY,
    environment TEXT NOT NULL,
    reference TEXT NOT NULL,
    received_at TEXT NOT NULL,
    transaction_json TEXT NOT NULL,
    reason TEXT NOT NULL
  ) STRICT;
  `,
};
