/**
 * Service secrets at rest: AES-256-GCM under the relay's master key, from RELAY_MASTER_KEY (base64
 * of 32 bytes) or a key file holding the same. Sealed form: 12-byte random nonce, ciphertext,
 * 16-byte tag; the key's public id is authenticated with it (AAD), so a sealed secret copied onto
 * another key's row does not open. The plain secret lives only in memory.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

const NONCE = 12;
const TAG = 16;

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/** A master key from its text (base64 of 32 bytes); `source` names where it came from in the error. */
export function decodeKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new MasterKeyError(`${source}: must be base64 (of 32 random bytes)`);
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new MasterKeyError(`${source}: must be 32 bytes, base64-encoded (got ${key.length} bytes)`);
  return key;
}

/** Told when a master key file can be read by others than its owner. */
export type MasterKeyWarn = (line: Record<string, unknown>) => void;

const warnOnStderr: MasterKeyWarn = (line) => console.error(JSON.stringify({ level: 'warn', ...line }));

/** Reads a master key file; one that group or others may read is used, with a warning naming the fix. */
export function readMasterKeyFile(path: string, warn: MasterKeyWarn = warnOnStderr): Buffer {
  let text: string;
  let mode: number;
  try {
    text = readFileSync(path, 'utf8');
    mode = statSync(path).mode & 0o777;
  } catch (err) {
    throw new MasterKeyError(`Cannot read the master key file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  if ((mode & 0o077) !== 0) {
    warn({ msg: 'master_key_file_too_open', file: path, mode: `0${mode.toString(8)}`, fix: `chmod 600 ${path}` });
  }
  return decodeKey(text, `master key file ${path}`);
}

/**
 * The master key: `--master-key-file` / RELAY_MASTER_KEY_FILE, else RELAY_MASTER_KEY. Missing or
 * malformed: an error saying how to make one (the key itself is never echoed).
 */
export function loadMasterKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env, warn?: MasterKeyWarn): Buffer {
  const path = file ?? env.RELAY_MASTER_KEY_FILE;
  if (path) return readMasterKeyFile(path, warn);
  const value = env.RELAY_MASTER_KEY;
  if (value) return decodeKey(value, 'RELAY_MASTER_KEY');
  throw new MasterKeyError(
    'The PostgreSQL relay needs a master key to encrypt service secrets: set RELAY_MASTER_KEY to 32 random bytes in base64 ' +
      '(e.g. `openssl rand -base64 32`) or pass --master-key-file <file> (or RELAY_MASTER_KEY_FILE). Every instance needs the same key.',
  );
}

/**
 * The previous master key, kept readable during a rotation (`--master-key-previous-file`,
 * RELAY_MASTER_KEY_PREVIOUS_FILE or RELAY_MASTER_KEY_PREVIOUS): secrets it opens are served too, and
 * new secrets are always sealed with the current key. Empty when none is given.
 */
export function loadPreviousMasterKeys(file: string | undefined, env: NodeJS.ProcessEnv = process.env, warn?: MasterKeyWarn): Buffer[] {
  const path = file ?? env.RELAY_MASTER_KEY_PREVIOUS_FILE;
  if (path) return [readMasterKeyFile(path, warn)];
  const value = env.RELAY_MASTER_KEY_PREVIOUS;
  return value ? [decodeKey(value, 'RELAY_MASTER_KEY_PREVIOUS')] : [];
}

export function sealSecret(masterKey: Buffer, publicId: string, secret: string): Buffer {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', masterKey, nonce);
  cipher.setAAD(Buffer.from(publicId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** Opens a sealed secret; throws MasterKeyError when the key is wrong or the row was tampered with. */
export function openSecret(masterKey: Buffer, publicId: string, sealed: Buffer): string {
  if (sealed.length < NONCE + TAG + 1) throw new MasterKeyError(`The sealed secret of ${publicId} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', masterKey, sealed.subarray(0, NONCE));
  decipher.setAAD(Buffer.from(publicId, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]).toString('utf8');
  } catch {
    throw new MasterKeyError(`The secret of ${publicId} does not open with this master key (a different key, or the row was altered)`);
  }
}

/** Opens with the first of `keys` that fits; throws the first key's error when none does. */
export function openWithAny(keys: readonly Buffer[], publicId: string, sealed: Buffer): string {
  let first: unknown;
  for (const key of keys) {
    try {
      return openSecret(key, publicId, sealed);
    } catch (err) {
      first ??= err;
    }
  }
  throw first ?? new MasterKeyError('No master key given');
}
