/**
 * The relay's PostgreSQL schema, one migration per file (`NNNN-what-it-does.ts`, each exporting one
 * `{ version, name, up }` as `migration`), listed here in order; migrate.ts applies them and checks their
 * history. To change the schema, add the next file and list it at the end, with a test in
 * test/integration/relay/store/pg/pg-migrations.test.ts; never edit or renumber a shipped one. A function
 * restated by a later migration (relay_commit) is restated in full in that migration's file: each file is the
 * schema as its version left it. Migrations are additive, so instances upgrade one at a time (relay/docs/postgresql.md,
 * "Upgrading"); one that drops or changes what an older relay uses sets `oldestReader` (migrate.ts).
 */
import type pg from 'pg';
import { applyPgMigrations, type PgMigration } from './migrate.js';
import { migration as m0001 } from './0001-tenants-and-events.js';
import { migration as m0002 } from './0002-relay-commit.js';
import { migration as m0003 } from './0003-relay-commit-on-conflict.js';
import { migration as m0004 } from './0004-admin.js';
import { migration as m0005 } from './0005-merchant-id-case.js';
import { migration as m0006 } from './0006-retention.js';
import { migration as m0007 } from './0007-owner-view.js';
import { migration as m0008 } from './0008-owner-link-revoker.js';
import { migration as m0009 } from './0009-summary-in-commit.js';
import { migration as m0010 } from './0010-owner-devices.js';
import { migration as m0011 } from './0011-prune-set-aside.js';
import { migration as m0012 } from './0012-till-reads.js';
import { migration as m0013 } from './0013-admin-token-expiry.js';
import { migration as m0014 } from './0014-names-as-typed.js';

export { PgSchemaError, PgSchemaTooNewError, type PgMigration } from './migrate.js';

export const PG_MIGRATIONS: readonly PgMigration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Brings the database to PG_SCHEMA_VERSION (tests may stop at an older `target`); returns the version found before. */
export function migratePg(client: pg.ClientBase, target = PG_SCHEMA_VERSION): Promise<number> {
  return applyPgMigrations(client, PG_MIGRATIONS, target);
}
