/**
 * `master-key rotate`: re-seals every service secret and the check value with the new key in one
 * transaction, holding the master-key lock (master-key.ts), audited.
 */
import type pg from 'pg';
import { sealCheck, sealedWith, withCheckedMasterKey } from '../master-key.js';
import { MasterKeyError, openSecret, openWithAny, sealSecret } from '../secret-box.js';
import type { Db } from '../transaction.js';
import { audit, cliActor } from './audit.js';

export type RotateResult = { resealed: number };

/**
 * Re-seals every service secret, and the check value, from `oldKey` to `newKey` in one transaction.
 * Refused, with nothing written, when `oldKey` is not the relay's key, when the new key is the same,
 * or when some secret does not open with the old key (it is named: remove it or add it again first).
 * Running instances keep serving: they hold the opened secrets in memory (see pg-directory.ts).
 */
export async function rotateMasterKey(pool: pg.Pool, oldKey: Buffer, newKey: Buffer, actor = cliActor()): Promise<RotateResult> {
  if (oldKey.equals(newKey)) throw new MasterKeyError('The new master key is the same as the current one');
  return withCheckedMasterKey(pool, oldKey, async (client) => {
    const { rows } = await client.query<{ public_id: string; secret_sealed: Buffer }>(
      'SELECT public_id, secret_sealed FROM service_keys ORDER BY public_id FOR UPDATE',
    );
    const ids: string[] = [];
    const plain = new Map<string, string>();
    const sealed: Buffer[] = [];
    const unreadable: string[] = [];
    for (const r of rows) {
      try {
        const secret = openWithAny([oldKey], r.public_id, r.secret_sealed);
        ids.push(r.public_id);
        plain.set(r.public_id, secret);
        sealed.push(sealSecret(newKey, r.public_id, secret));
      } catch {
        unreadable.push(r.public_id);
      }
    }
    if (unreadable.length > 0) {
      throw new MasterKeyError(
        `Not rotated: the secrets of ${unreadable.join(', ')} do not open with the current master key. ` +
          'Remove those keys (momo-relay key remove) or add them again, then rotate.',
      );
    }
    if (ids.length > 0) {
      await client.query(
        `UPDATE service_keys k SET secret_sealed = u.sealed FROM unnest($1::text[], $2::bytea[]) AS u(id, sealed)
         WHERE k.public_id = u.id`,
        [ids, sealed],
      );
    }
    await client.query(
      `INSERT INTO master_key_check (id, sealed) VALUES (true, $1)
       ON CONFLICT (id) DO UPDATE SET sealed = excluded.sealed, updated_at = now()`,
      [sealCheck(newKey)],
    );
    await proveResealed(client, newKey, plain);
    await audit(client, actor, { action: 'master-key.rotate', detail: { resealed: ids.length } });
    return { resealed: ids.length };
  });
}

/**
 * Reads back, before the commit, what the rotation wrote: every secret opens with the new key to the
 * same text, and so does the check value; otherwise nothing is committed.
 */
async function proveResealed(db: Db, newKey: Buffer, plain: ReadonlyMap<string, string>): Promise<void> {
  const { rows } = await db.query<{ public_id: string; secret_sealed: Buffer }>('SELECT public_id, secret_sealed FROM service_keys');
  const wrong = rows
    .filter((r) => {
      try {
        return openSecret(newKey, r.public_id, r.secret_sealed) !== plain.get(r.public_id);
      } catch {
        return true;
      }
    })
    .map((r) => r.public_id);
  const { checkValue } = await sealedWith(db, newKey);
  if (wrong.length > 0 || !checkValue) {
    throw new MasterKeyError(
      `Not rotated: read back, ${wrong.length > 0 ? `the secrets of ${wrong.join(', ')}` : 'the check value'} did not open with the new key`,
    );
  }
}
