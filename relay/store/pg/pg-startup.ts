/**
 * Reaching the database at start, and saying plainly why it failed.
 *
 * - An unreachable database (refused, timed out, name not resolved, server starting or shutting down,
 *   no connection slot free) is a `PgUnreachableError`. The relay waits for it with a doubling back-off,
 *   logged as `database_unreachable` (it does not exit: under systemd that would be a restart loop
 *   that hides the cause); a one-shot CLI command says it in one line instead.
 * - A database the relay's role may not create its tables in (`permission denied for schema public`,
 *   SQLSTATE 42501) is a `PgSetupError` naming the fix: make the role the database's owner.
 * - `instances × (pool + 1)` connections are compared with the server's `max_connections`.
 */
import type pg from 'pg';
import type { LogFn } from '../../ops/index.js';
import { PgSchemaTooNewError } from './migrations/index.js';

export class PgUnreachableError extends Error {
  override name = 'PgUnreachableError';
}

export class PgSetupError extends Error {
  override name = 'PgSetupError';
}

/** SQLSTATEs that mean "not now", not "never": the server is starting, stopping or full. */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08006']);

/** True for a failure to reach the server at all (no SQLSTATE: a socket error or a connect time-out) or a transient refusal. */
export function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return TRANSIENT_SQLSTATES.has(code);
  return true;
}

/** The error's text without anything that could hold a password (a connection string). */
function describe(err: unknown): string {
  const message = (err as Error).message || String(err);
  return message.replace(/postgres(ql)?:\/\/\S+/g, '<database url>');
}

/** What a failed first connection becomes: unreachable (retry), or a plain error naming the cause. */
export function connectError(err: unknown): Error {
  if (isUnreachable(err)) return new PgUnreachableError(`Cannot reach the relay database (${describe(err)})`);
  const code = (err as { code?: string }).code;
  if (code === '28P01' || code === '28000') {
    return new PgSetupError(`The relay database refused the login (${describe(err)}): check the user and password in RELAY_DATABASE_URL`);
  }
  if (code === '3D000') return new PgSetupError(`${describe(err)}: create it first (relay/docs/postgresql.md, "Database bootstrap")`);
  return new PgSetupError(`Cannot open the relay database: ${describe(err)}${code ? ` (SQLSTATE ${code})` : ''}`);
}

/** A failed schema migration: a role without the rights to create tables is said with its fix. */
export async function migrationError(client: pg.ClientBase, err: unknown): Promise<unknown> {
  if ((err as { code?: string }).code !== '42501') return err;
  const who = await client
    .query<{ role: string; db: string; owner: string }>(
      'SELECT current_user AS role, current_database() AS db, pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database()',
    )
    .then((r) => r.rows[0])
    .catch(() => undefined);
  const role = who?.role ?? 'the relay role';
  const db = who?.db ?? 'the database';
  return new PgSetupError(
    `Role "${role}" may not create the relay's tables in database "${db}" (owned by "${who?.owner ?? '?'}"; ${describe(err)}): ` +
      `make it the owner (ALTER DATABASE "${db}" OWNER TO "${role}", or CREATE DATABASE … OWNER "${role}"), see relay/docs/postgresql.md, "Database bootstrap"`,
  );
}

export type WaitOptions = { log: LogFn; firstDelayMs?: number; maxDelayMs?: number };

/**
 * Runs `open` until it succeeds or fails for another reason than an unreachable database or a schema too
 * new for this relay (mid-upgrade: a newer relay migrated it; this one waits to be replaced or the database
 * rolled back, rather than exit into a restart loop), waiting with a doubling back-off (0.5 s to 15 s by
 * default) between attempts, each logged.
 */
export async function waitForDatabase<T>(open: () => Promise<T>, options: WaitOptions): Promise<T> {
  const max = options.maxDelayMs ?? 15_000;
  let delay = options.firstDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await open();
      if (attempt > 1) options.log({ level: 'info', msg: 'database_reachable', attempts: attempt });
      return result;
    } catch (err) {
      if (err instanceof PgSchemaTooNewError) {
        options.log({ level: 'error', msg: 'schema_too_new', error: err.message, attempt, retryInMs: delay });
      } else if (err instanceof PgUnreachableError) {
        options.log({ level: 'warn', msg: 'database_unreachable', error: err.message, attempt, retryInMs: delay });
      } else throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, max);
    }
  }
}

/**
 * Warns (`pg_pool_too_large`) when `instances` relays, each holding `poolSize` pool connections and
 * one LISTEN connection, would not fit the server's `max_connections` less its reserved slots and a
 * few for the CLI and the operator. Returns what it compared.
 */
export async function checkConnectionBudget(
  pool: pg.Pool,
  settings: { poolSize: number; instances: number },
  log: LogFn,
): Promise<{ needed: number; available: number; fits: boolean }> {
  const { rows } = await pool.query<{ name: string; setting: string }>(
    "SELECT name, setting FROM pg_settings WHERE name IN ('max_connections', 'superuser_reserved_connections', 'reserved_connections')",
  );
  const value = (name: string) => Number(rows.find((r) => r.name === name)?.setting ?? 0);
  const headroom = 5; // CLI commands, psql, pg_dump
  const available = value('max_connections') - value('superuser_reserved_connections') - value('reserved_connections') - headroom;
  const needed = settings.instances * (settings.poolSize + 1);
  const fits = needed <= available;
  if (!fits) {
    log({
      level: 'warn',
      msg: 'pg_pool_too_large',
      instances: settings.instances,
      poolSize: settings.poolSize,
      needed,
      maxConnections: value('max_connections'),
      available,
      fix: `lower --pg-pool-size to ${Math.max(1, Math.floor(available / settings.instances) - 1)} or raise max_connections in postgresql.conf`,
    });
  }
  return { needed, available, fits };
}
