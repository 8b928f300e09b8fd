/**
 * The runner of the relay's PostgreSQL migrations (index.ts lists them): each runs once, recorded by version
 * and name in relay_schema_migrations; the pending ones run in one transaction (DDL is transactional here),
 * so a failed upgrade leaves the old schema. Instances starting together serialise on an advisory lock. A
 * database from a newer relay, or whose recorded history disagrees with the migrations (another build's
 * migration under a version number: shared/migration-history.ts), is refused untouched.
 */
import type pg from 'pg';
import { historyDisagreement, historyRefusal, type RecordedMigration } from '../../../../shared/migration-history.js';

/** One migration: its SQL runs as one statement list, inside the upgrade's transaction. */
export type PgMigration = { version: number; name: string; up: string };

export class PgSchemaError extends Error {
  override name = 'PgSchemaError';
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
    const { rows } = await client.query<RecordedMigration>(HISTORY);
    const found = rows.at(-1)?.version ?? 0;
    if (found > known) {
      throw new PgSchemaError(
        `The relay database is schema version ${found}, newer than this relay understands (${known}). ` +
          'Run a newer relay; this one will not touch it.',
      );
    }
    const disagreement = historyDisagreement(rows, migrations, found);
    if (disagreement) throw new PgSchemaError(historyRefusal('The relay database', disagreement));
    for (const m of migrations) {
      if (m.version <= found || m.version > target) continue;
      await client.query(m.up);
      await client.query('INSERT INTO relay_schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
    return found;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
