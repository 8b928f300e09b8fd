/**
 * A look-up by reference alone reads the UNIQUE (environment, reference) index once per environment
 * (event-log.ts), so this second index of the references only cost every insert: its pages written to the
 * WAL at each commit, a good part of a group commit's time.
 */
import type { Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 8,
  name: 'drop events_reference (the unique index answers look-ups by reference)',
  up: 'DROP INDEX events_reference',
};
