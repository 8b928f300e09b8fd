/**
 * One command, one store. `token … --config <file>` and `log-id … --data <dir>` act on a single shop's
 * files; with a PostgreSQL database also named (`--database-url`, or RELAY_DATABASE_URL exported in the
 * shell) it would be unclear which store the operator meant, so the mix is refused, saying how to do
 * either. (`--data` with a database URL is refused by `serve` the same way.)
 */
import { fail, PROG } from './usage.js';

/** The nouns only the PostgreSQL relay has (pg-commands.ts runs them). */
export const PG_COMMANDS = new Set(['merchant', 'key', 'import', 'admin-token', 'master-key', 'audit']);

/** The nouns whose `list` on PostgreSQL pg-list-commands.ts runs, loading less than pg-commands.ts. */
export const LISTED = ['merchant', 'key', 'token', 'audit'];

type Values = { config?: string; data?: string; merchant?: string; 'database-url'?: string };

export function refuseMixedStores(noun: string, values: Values, databaseUrl: string | undefined): void {
  if (!databaseUrl) return;
  const flag =
    noun === 'token' ? values.config && '--config' : noun === 'log-id' || noun === 'owner-link' ? values.data && '--data' : undefined;
  if (!flag) return;
  const source = values['database-url'] ? '--database-url' : 'RELAY_DATABASE_URL (exported in this shell)';
  const store = flag === '--config' ? `the config file ${values.config}` : `the SQLite log in ${values.data}`;
  fail(
    `${PROG} ${noun}: ${flag} names a single shop's store (${store}), but ${source} names a PostgreSQL database: ` +
      `refusing to guess. For the single shop: unset RELAY_DATABASE_URL (or run it as RELAY_DATABASE_URL= ${PROG} ${noun} …). ` +
      `For PostgreSQL: leave out ${flag}${noun === 'token' ? ' and give --merchant MCH_…' : ''}.`,
  );
}
