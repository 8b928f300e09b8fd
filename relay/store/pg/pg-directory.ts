/**
 * Every merchant, service key and till token, held in memory so that verifying a delivery or a
 * till's token needs no database round trip. Reloaded whole whenever auth_version moves (a trigger
 * bumps it on any change; the CLI's NOTIFY wakes the reload at once, the periodic catch-up reads the
 * version in case a notification was lost). Secrets are opened with the master key here and kept in
 * memory only.
 */
import type pg from 'pg';
import type { LogFn } from '../../ops/index.js';
import type { ServiceKey, TillIdentity } from '../index.js';
import { openSecret } from './secret-box.js';

type Snapshot = {
  version: number;
  logIds: Map<string, string>;
  keys: Map<string, ServiceKey>;
  tills: Map<string, TillIdentity>;
};

export class PgDirectory {
  private snapshot: Snapshot = { version: 0, logIds: new Map(), keys: new Map(), tills: new Map() };

  constructor(
    private readonly masterKey: Buffer,
    private readonly log: LogFn,
  ) {}

  get version(): number {
    return this.snapshot.version;
  }

  findKey(publicId: string): ServiceKey | undefined {
    return this.snapshot.keys.get(publicId);
  }

  /**
   * Looked up by the token's SHA-256: a 256-bit random token's hash cannot be guessed or learnt from
   * lookup timing, and a map stays fast with thousands of tills.
   */
  findTill(tokenHash: string): TillIdentity | undefined {
    return this.snapshot.tills.get(tokenHash);
  }

  logId(merchantId: string): string | undefined {
    return this.snapshot.logIds.get(merchantId);
  }

  merchantCount(): number {
    return this.snapshot.logIds.size;
  }

  /**
   * Reads everything again in one transaction (a consistent snapshot). A key whose secret does not
   * open is left out and logged; their ids are returned.
   */
  async reload(pool: pg.Pool): Promise<string[]> {
    const unreadable: string[] = [];
    const client = await pool.connect();
    let released = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const version = await client.query<{ version: string }>('SELECT version FROM auth_version');
      const merchants = await client.query<{ id: string; log_id: string }>('SELECT id, log_id FROM merchants');
      const keys = await client.query<{ public_id: string; merchant_id: string; secret_sealed: Buffer }>(
        'SELECT public_id, merchant_id, secret_sealed FROM service_keys',
      );
      const tills = await client.query<{ merchant_id: string; label: string; token_hash: string }>(
        'SELECT merchant_id, label, token_hash FROM till_tokens',
      );
      await client.query('COMMIT');
      const next: Snapshot = { version: Number(version.rows[0]?.version ?? 0), logIds: new Map(), keys: new Map(), tills: new Map() };
      for (const m of merchants.rows) next.logIds.set(m.id, m.log_id);
      for (const k of keys.rows) {
        try {
          next.keys.set(k.public_id, {
            publicId: k.public_id,
            merchantId: k.merchant_id,
            secret: openSecret(this.masterKey, k.public_id, k.secret_sealed),
          });
        } catch (err) {
          unreadable.push(k.public_id);
          this.log({
            level: 'error',
            msg: 'service_key_unreadable',
            keyId: k.public_id,
            merchantId: k.merchant_id,
            error: (err as Error).message,
          });
        }
      }
      for (const t of tills.rows) next.tills.set(t.token_hash, { merchantId: t.merchant_id, label: t.label, tokenHash: t.token_hash });
      this.snapshot = next;
      return unreadable;
    } catch (err) {
      client.release(err as Error);
      released = true;
      throw err;
    } finally {
      if (!released) client.release();
    }
  }
}
