/**
 * The simulator database's schema, one migration per file (`NNNN-what-it-does.ts`, each exporting one
 * `{ version, name, up }` as `migration`), listed here in order; shared/sqlite.ts applies them and keeps their
 * history. To change the schema, add the next file and list it at the end, with a test in
 * test/unit/sandbox/migrations.test.ts; never edit or renumber a shipped one.
 */
import { latestVersion, type Migration } from '../../shared/sqlite.js';
import { migration as m0001 } from './0001-merchants-keys-transactions-deliveries.js';
import { migration as m0002 } from './0002-migration-history.js';

export const MIGRATIONS: readonly Migration[] = [m0001, m0002];

export const SCHEMA_VERSION = latestVersion(MIGRATIONS);
