/**
 * A merchant's changes to its count of owner links (maxOwnerLinksPerMerchant), one at a time on every instance
 * sharing the database: a link made, or a new invitation that makes a link count again. Each counts and writes
 * in one transaction under the merchant's advisory lock.
 */
import type pg from 'pg';
import { linkOn } from '../owner-link.js';
import { inTransaction } from './transaction.js';

export class OwnerLinkTurns {
  /** Per merchant, the end of the last change asked for on this instance. */
  private readonly last = new Map<string, Promise<void>>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Runs `fn` in one transaction holding the merchant's lock. The merchant's changes take turns here first, so
   * they wait on one another in this process and hold at most one of the pool's connections, which every
   * merchant's deliveries need.
   */
  run<T>(merchant: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const before = this.last.get(merchant) ?? Promise.resolve();
    const done = before.then(() =>
      inTransaction(this.pool, async (client) => {
        // Every instance takes the merchant's lock before counting; it ends with the transaction.
        await client.query("SELECT pg_advisory_xact_lock(hashtext('momo-relay-owner-links'), hashtext($1))", [merchant]);
        return fn(client);
      }),
    );
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.last.set(merchant, settled);
    void settled.then(() => {
      if (this.last.get(merchant) === settled) this.last.delete(merchant);
    });
    return done;
  }
}

/** How many of the merchant's links count at `at` (linkOn), leaving out the link `except`. */
export async function linksOn(client: pg.PoolClient, merchant: string, at: string, except = ''): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM owner_links WHERE merchant_id = $1 AND id <> $3 AND ${linkOn('$2')}`,
    [merchant, at, except],
  );
  return rows[0]?.n ?? 0;
}
