/** Connections to the relay's database: the settings every one gets, and a pool with the schema brought up to date. */
import pg from 'pg';
import { migratePg } from './migrations/index.js';
import { connectError, migrationError } from './pg-startup.js';

/** Settings every connection gets: acknowledged means durable, and nothing waits forever. */
export function connectionConfig(databaseUrl: string): pg.ClientConfig {
  return {
    connectionString: databaseUrl,
    options: '-c synchronous_commit=on -c statement_timeout=10000 -c idle_in_transaction_session_timeout=30000',
    connectionTimeoutMillis: 3_000,
    keepAlive: true,
    application_name: 'momo-relay',
  };
}

/** A pool on the database with the schema brought up to date (for the CLI and the relay). */
export async function openPgPool(databaseUrl: string, max = 10): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...connectionConfig(databaseUrl), max });
  pool.on('error', () => undefined); // an idle connection's error: the next query on a new one says more
  const client = await pool.connect().catch(async (err: Error) => {
    await pool.end().catch(() => undefined);
    throw connectError(err);
  });
  try {
    const sync = await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    if (sync.rows[0]?.synchronous_commit !== 'on') {
      throw new Error(`synchronous_commit is ${sync.rows[0]?.synchronous_commit}, expected on`);
    }
    await migratePg(client).catch(async (err: unknown) => {
      throw await migrationError(client, err);
    });
    client.release();
    return pool;
  } catch (err) {
    client.release(err as Error);
    await pool.end().catch(() => undefined);
    throw err;
  }
}
