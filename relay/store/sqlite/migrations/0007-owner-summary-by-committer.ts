/**
 * The summary row of an accepted event is written by the committer (EventLog.apply) from the fields the
 * receiver worked out from the parsed transaction (store/owner-summary.ts), instead of by a trigger reading
 * the JSON again with a dozen json_extract calls inside the commit. Same rules, same transaction; the rows
 * summed before stay. PostgreSQL does the same (its migration 9).
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 7,
  name: "owner's view: summary rows written by the committer from the parsed transaction (no trigger)",
  up: 'DROP TRIGGER IF EXISTS events_owner_summary',
};
