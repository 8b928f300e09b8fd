/**
 * Which master key the stored secrets are sealed with.
 *
 * A key check value (a known text sealed with the master key, in `master_key_check`) tells at once
 * whether a key is the relay's: `key add` with another key is refused before it writes anything,
 * and an instance started with another key says so instead of finding every secret unreadable. A
 * database from before the check value is checked by trying its stored secrets (one that opens is
 * enough); the check value is then written with the key that opened them.
 *
 * Changing it (`master-key rotate`) is the operator's: admin/master-key-rotation.ts.
 */
import type pg from 'pg';
import { MasterKeyError, openSecret, sealSecret } from './secret-box.js';
import { inTransaction, type Db } from './transaction.js';

const CHECK_ID = 'momo-relay:master-key-check';
const CHECK_TEXT = 'momo-relay master key check v1';
/** Key changes and rotations take this lock, so a `key add` never interleaves with a rotation. */
const LOCK = "SELECT pg_advisory_xact_lock(hashtext('momo-relay-master-key'))";

/** The check value sealed with `key`. */
export function sealCheck(key: Buffer): Buffer {
  return sealSecret(key, CHECK_ID, CHECK_TEXT);
}

function opensCheck(keys: readonly Buffer[], sealed: Buffer): Buffer | null {
  for (const key of keys) {
    try {
      if (openSecret(key, CHECK_ID, sealed) === CHECK_TEXT) return key;
    } catch {
      /* not this one */
    }
  }
  return null;
}

const WRONG_KEY =
  'use the master key the relay was set up with (RELAY_MASTER_KEY or --master-key-file, the same on every instance); ' +
  'after a rotation, the new one';

/** Which of the keys given opened the relay's check value: the current one, or only a previous one. */
export type KeyInUse = 'current' | 'previous';

async function readCheck(db: Db, keys: readonly Buffer[]): Promise<KeyInUse | null | undefined> {
  const { rows } = await db.query<{ sealed: Buffer }>('SELECT sealed FROM master_key_check');
  if (!rows[0]) return undefined;
  const opener = opensCheck(keys, rows[0].sealed);
  if (!opener) throw new MasterKeyError(`This master key is not the relay's: ${WRONG_KEY}.`);
  return opener === keys[0] ? 'current' : 'previous';
}

/**
 * Throws MasterKeyError unless one of `keys` (the current first, then any previous one) is the key
 * the stored secrets are sealed with, and says which. With `writeCheck`, a missing check value is
 * written with the current key, when that key opens what is stored (or nothing is stored yet), and
 * read back: of two instances with different keys starting on an empty database at once, only the
 * one whose check value was stored goes on.
 */
export async function assertMasterKey(db: Db, keys: readonly Buffer[], writeCheck: boolean): Promise<KeyInUse> {
  const current = keys[0];
  if (!current) throw new MasterKeyError('No master key given');
  const found = await readCheck(db, keys);
  if (found) return found;
  const stored = await db.query<{ public_id: string; secret_sealed: Buffer }>('SELECT public_id, secret_sealed FROM service_keys');
  const opener = (key: Buffer) =>
    stored.rows.some((r) => {
      try {
        openSecret(key, r.public_id, r.secret_sealed);
        return true;
      } catch {
        return false;
      }
    });
  if (stored.rows.length > 0 && !keys.some(opener)) {
    throw new MasterKeyError(`This master key opens none of the ${stored.rows.length} stored secrets: ${WRONG_KEY}.`);
  }
  if (writeCheck && (stored.rows.length === 0 || opener(current))) {
    await db.query('INSERT INTO master_key_check (id, sealed) VALUES (true, $1) ON CONFLICT (id) DO NOTHING', [sealCheck(current)]);
    const written = await readCheck(db, keys);
    if (written) return written;
  }
  return opener(current) || stored.rows.length === 0 ? 'current' : 'previous';
}

/** What is still sealed with `key`: whether the check value opens with it, and which service secrets do. */
export async function sealedWith(db: Db, key: Buffer): Promise<{ checkValue: boolean; secrets: string[]; total: number }> {
  const check = await db.query<{ sealed: Buffer }>('SELECT sealed FROM master_key_check');
  const stored = await db.query<{ public_id: string; secret_sealed: Buffer }>(
    'SELECT public_id, secret_sealed FROM service_keys ORDER BY public_id',
  );
  const secrets = stored.rows
    .filter((r) => {
      try {
        openSecret(key, r.public_id, r.secret_sealed);
        return true;
      } catch {
        return false;
      }
    })
    .map((r) => r.public_id);
  return { checkValue: check.rows[0] ? opensCheck([key], check.rows[0].sealed) !== null : false, secrets, total: stored.rows.length };
}

/** Runs `fn` in a transaction holding the master-key lock, with the key checked first. */
export async function withCheckedMasterKey<T>(pool: pg.Pool, masterKey: Buffer, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query(LOCK);
    await assertMasterKey(client, [masterKey], true);
    return fn(client);
  });
}
