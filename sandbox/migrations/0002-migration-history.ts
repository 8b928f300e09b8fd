/**
 * The history of this database's migrations, by version and name (shared/sqlite.ts writes it): from here on
 * the simulator refuses a database migrated by another build whose migration N is not this build's migration
 * N. The version applied before is recorded under this build's name.
 */
import { MIGRATION_HISTORY, type Migration } from '../../shared/sqlite.js';

export const migration: Migration = {
  version: 2,
  name: 'migration history',
  up: MIGRATION_HISTORY,
};
