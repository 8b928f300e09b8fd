/**
 * Every merchant, service key and till token, held in memory so that verifying a delivery or a
 * till's token needs no database round trip. Reloaded whole whenever auth_version moves (a trigger
 * bumps it on any change; the CLI's NOTIFY wakes the reload at once, the periodic catch-up reads the
 * version in case a notification was lost). Secrets are opened with the master key here and kept in
 * memory only.
 *
 * One secret that does not open never stops the relay: that key is set aside (its deliveries are
 * refused as an unknown key), reported by `unreadableKeys()` (the admin listener names it, a gauge
 * counts it), and every other merchant is served. A secret this instance had already opened stays
 * in memory when its row is re-sealed with a master key it does not hold (a `master-key rotate` while
 * it runs), as long as the row is the same key (same merchant, same creation time): so running
 * instances keep working through a rotation, and pick up the new key at their next restart.
 */
import type pg from 'pg';
import type { LogFn } from '../../ops/index.js';
import type { ServiceKey, TillIdentity, UnreadableKey } from '../index.js';
import { openWithAny } from './secret-box.js';

type Snapshot = {
  version: number;
  logIds: Map<string, string>;
  suspended: Set<string>;
  keys: Map<string, ServiceKey>;
  /** When each key's row was created: a re-sealed row is the same key only if this is unchanged. */
  keyCreated: Map<string, number>;
  tills: Map<string, TillIdentity>;
  unreadable: UnreadableKey[];
};

type KeyRow = { public_id: string; merchant_id: string; secret_sealed: Buffer; created_at: Date };

const empty = (): Snapshot => ({
  version: 0,
  logIds: new Map(),
  suspended: new Set(),
  keys: new Map(),
  keyCreated: new Map(),
  tills: new Map(),
  unreadable: [],
});

export class PgDirectory {
  private snapshot: Snapshot = empty();

  /** `masterKeys`: the current one first, then any previous one kept readable during a rotation. */
  constructor(
    private readonly masterKeys: readonly Buffer[],
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

  isSuspended(merchantId: string): boolean {
    return this.snapshot.suspended.has(merchantId);
  }

  /** Keys set aside because their secret does not open with this instance's master keys. */
  unreadableKeys(): UnreadableKey[] {
    return this.snapshot.unreadable;
  }

  /** Opens one key's secret; keeps the one already held when the row was only re-sealed; else sets it aside. */
  private openKey(k: KeyRow, next: Snapshot): void {
    const created = k.created_at.getTime();
    const flag = next.suspended.has(k.merchant_id) ? { suspended: true as const } : {};
    try {
      const secret = openWithAny(this.masterKeys, k.public_id, k.secret_sealed);
      next.keys.set(k.public_id, { publicId: k.public_id, merchantId: k.merchant_id, secret, ...flag });
      next.keyCreated.set(k.public_id, created);
      return;
    } catch (err) {
      const held = this.snapshot.keys.get(k.public_id);
      if (held && held.merchantId === k.merchant_id && this.snapshot.keyCreated.get(k.public_id) === created) {
        next.keys.set(k.public_id, { publicId: held.publicId, merchantId: held.merchantId, secret: held.secret, ...flag });
        next.keyCreated.set(k.public_id, created);
        return;
      }
      next.unreadable.push({ publicId: k.public_id, merchantId: k.merchant_id });
      if (!this.snapshot.unreadable.some((u) => u.publicId === k.public_id)) {
        this.log({
          level: 'error',
          msg: 'service_key_unreadable',
          keyId: k.public_id,
          merchantId: k.merchant_id,
          error: (err as Error).message,
        });
      }
    }
  }

  /**
   * Reads everything again in one transaction (a consistent snapshot). A key whose secret does not
   * open is set aside and logged (once); the keys set aside are returned.
   */
  async reload(pool: pg.Pool): Promise<UnreadableKey[]> {
    const client = await pool.connect();
    let released = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const version = await client.query<{ version: string }>('SELECT version FROM auth_version');
      const merchants = await client.query<{ id: string; log_id: string; suspended: boolean }>(
        'SELECT id, log_id, suspended_at IS NOT NULL AS suspended FROM merchants',
      );
      const keys = await client.query<KeyRow>('SELECT public_id, merchant_id, secret_sealed, created_at FROM service_keys');
      const tills = await client.query<{ merchant_id: string; label: string; token_hash: string }>(
        'SELECT merchant_id, label, token_hash FROM till_tokens',
      );
      await client.query('COMMIT');
      const next = empty();
      next.version = Number(version.rows[0]?.version ?? 0);
      for (const m of merchants.rows) {
        next.logIds.set(m.id, m.log_id);
        if (m.suspended) next.suspended.add(m.id);
      }
      for (const k of keys.rows) this.openKey(k, next);
      for (const t of tills.rows) {
        const flag = next.suspended.has(t.merchant_id) ? { suspended: true as const } : {};
        next.tills.set(t.token_hash, { merchantId: t.merchant_id, label: t.label, tokenHash: t.token_hash, ...flag });
      }
      this.snapshot = next;
      return next.unreadable;
    } catch (err) {
      client.release(err as Error);
      released = true;
      throw err;
    } finally {
      if (!released) client.release();
    }
  }
}
