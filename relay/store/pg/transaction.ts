/** What the PostgreSQL store's reads and changes run on: a pool or one of its connections, and one transaction. */
import type pg from 'pg';

export type Db = pg.ClientBase | pg.Pool;

/** Runs `fn` in one transaction on a pool connection. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
