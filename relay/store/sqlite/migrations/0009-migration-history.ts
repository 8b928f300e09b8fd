/**
 * The history of this database's migrations, by version and name (shared/sqlite.ts writes it): from here on
 * the relay refuses a database migrated by another build whose migration N is not this build's migration N.
 * The versions applied before are recorded under this build's names.
 */
import { MIGRATION_HISTORY, type Migration } from '../../../../shared/sqlite.js';

export const migration: Migration = {
  version: 9,
  name: 'migration history',
  up: MIGRATION_HISTORY,
};
