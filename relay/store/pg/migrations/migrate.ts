/**
 * The runner of the relay's PostgreSQL migrations (index.ts lists them): each runs once, recorded by version
 * and name in relay_schema_migrations; the pending ones run in one transaction (DDL is transactional here),
 * so a failed upgrade leaves the old schema. Instances starting together serialise on an advisory lock. A
 * database whose recorded history disagrees with the migrations (another build's migration under a version
 * number: shared/migration-history.ts) is refused untouched.
 *
 * Upgrades are rolling (relay/docs/postgresql.md, "Upgrading"): migrations are additive, so a relay one
 * release older keeps serving a database its successor migrated. Each version records the oldest schema
 * whose relay can still serve it (`oldest_reader`: the previous version's, unless the migration says
 * otherwise, as one that drops what older relays use must, a release after they stopped using it). A relay
 * meeting a newer schema serves it, untouched, when it is at least that oldest reader; otherwise it is a
 * PgSchemaTooNewError, which `serve` waits out (logged, retried) instead of exiting into a restart loop.
 */
import type pg from 'pg';
import { historyDisagreement, historyRefusal, type RecordedMigration } from '../../../../shared/migration-history.js';

/**
 * One migration: its SQL runs as one statement list, inside the upgrade's transaction. `oldestReader`: the
 * oldest schema version whose relay still serves the database once this has run (default: additive, the
 * previous migration's).
 */
export type PgMigration = { version: number; name: string; up: string; oldestReader?: number };

export class PgSchemaError extends Error {
  override name = 'PgSchemaError';
}

/** A newer schema that this relay cannot serve (a migration after it dropped or changed what it uses). */
export class PgSchemaTooNewError extends PgSchemaError {
  override name = 'PgSchemaTooNewError';
}

const HISTORY = 'SELECT version, name FROM relay_schema_migrations ORDER BY version';

/**
 * The version found when there is nothing to do, in one query without the transaction and lock: every CLI
 * call opens the database, and a `merchant list` is mostly start-up. Migrations commit with their version
 * row, so a committed history that agrees with the migrations and reaches `target` is final. Anything else
 * (no table yet, a newer schema, a history that disagrees, an error) goes the locked way, which says it
 * properly.
 */
async function versionIfCurrent(client: pg.ClientBase, migrations: readonly PgMigration[], target: number): Promise<number | undefined> {
  try {
    const { rows } = await client.query<RecordedMigration>(HISTORY);
    const found = rows.at(-1)?.version ?? 0;
    if (found < target || found > migrations.length) return undefined;
    return historyDisagreement(rows, migrations, found) === undefined ? found : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Brings the database to the last of `migrations` (tests may stop at an older `target`); returns the version
 * found before.
 */
export async function applyPgMigrations(client: pg.ClientBase, migrations: readonly PgMigration[], target: number): Promise<number> {
  const known = migrations.length;
  const current = await versionIfCurrent(client, migrations, target);
  if (current !== undefined) return current;
  await client.query('BEGIN');
  try {
    // One instance migrates at a time; the others wait here, then find nothing left to do.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('momo-relay-migrate'))");
    await client.query(`CREATE TABLE IF NOT EXISTS relay_schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    await client.query('ALTER TABLE relay_schema_migrations ADD COLUMN IF NOT EXISTS oldest_reader integer');
    const { rows } = await client.query<RecordedMigration & { oldest_reader: number | null }>(
      'SELECT version, name, oldest_reader FROM relay_schema_migrations ORDER BY version',
    );
    const found = rows.at(-1)?.version ?? 0;
    const mine = rows.filter((r) => r.version <= known);
    const disagreement = historyDisagreement(mine, migrations, Math.min(found, known));
    if (disagreement) throw new PgSchemaError(historyRefusal('The relay database', disagreement));
    if (found > known) {
      // A version this relay has never seen without its oldest reader recorded cannot be assumed additive.
      const needs = Math.max(...rows.filter((r) => r.version > known).map((r) => r.oldest_reader ?? found));
      if (needs <= known) {
        await client.query('COMMIT');
        return found;
      }
      throw new PgSchemaTooNewError(
        `The relay database is schema version ${found}, newer than this relay understands (${known}), and it needs a relay of schema ${needs} or later. ` +
          'Run a newer relay; this one will not touch it.',
      );
    }
    let oldest = rows.reduce((n, r) => Math.max(n, r.oldest_reader ?? 1), 1);
    for (const m of migrations) {
      if (m.version <= found || m.version > target) continue;
      await client.query(m.up);
      oldest = Math.max(oldest, m.oldestReader ?? 1);
      await client.query('INSERT INTO relay_schema_migrations (version, name, oldest_reader) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        oldest,
      ]);
    }
    await client.query('COMMIT');
    return found;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
