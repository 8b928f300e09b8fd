/**
 * A database's migration history against the program's migration files, for every runner (SQLite's in
 * shared/sqlite.ts, the relay's PostgreSQL one). A database records each migration applied by version and
 * name; a version number alone cannot tell this program's migration 7 from another build's migration 7 (a
 * branch that numbered its own, a migration edited after it shipped), and running the next migrations on
 * tables this program does not expect would corrupt them. So a database whose history disagrees with the
 * files is refused, untouched, with what to do.
 */

/** One applied migration as the database recorded it. */
export type RecordedMigration = { version: number; name: string };

/** What a runner knows of each of its migrations: numbered 1, 2, 3… in order. */
type Named = { version: number; name: string };

/** A database whose recorded migrations are not this program's. */
export class MigrationHistoryError extends Error {
  override name = 'MigrationHistoryError';
}

/**
 * Where the recorded history (`recorded`, of a database at version `current`) and the program's `migrations`
 * part: undefined when every version 1 to `current` is recorded once, under the name its file gives it.
 */
export function historyDisagreement(
  recorded: readonly RecordedMigration[],
  migrations: readonly Named[],
  current: number,
): string | undefined {
  const known = migrations.length;
  for (const row of recorded) {
    const file = migrations[row.version - 1];
    if (!file) return `records migration ${row.version} ("${row.name}"), which this build does not have (it has 1 to ${known})`;
    if (file.name !== row.name) {
      return `records migration ${row.version} as "${row.name}", but this build's migration ${row.version} is "${file.name}"`;
    }
    if (row.version > current) return `records migration ${row.version} ("${row.name}") although it says it is at version ${current}`;
  }
  const seen = new Set(recorded.map((row) => row.version));
  for (let version = 1; version <= current; version++) {
    if (!seen.has(version)) return `has no record of migration ${version} although it says it is at version ${current}`;
  }
  return undefined;
}

/** The whole refusal: which database, where its history parts from the files, why that stops us, and what to do. */
export function historyRefusal(database: string, disagreement: string): string {
  return (
    `${database} ${disagreement}. It was migrated by another build of this program (another branch, or a migration ` +
    'edited or renumbered after it shipped), so its tables may not be what this build expects; nothing was changed. ' +
    'Open it with the build that migrated it, or restore a backup made by this build. ' +
    '(Developers: never edit or renumber a shipped migration; add the next one.)'
  );
}
