/**
 * Key material. The simulator must sign webhooks with each key's secret, so it keeps the secret:
 *  - a SHA-256 hash of the secret authenticates bearer tokens (looked up by hash, never compared as text);
 *  - the secret itself is encrypted at rest with AES-256-GCM under a per-data-dir master key
 *    (`master.key`, 32 random bytes, file mode 0600), the public id bound as associated data — or,
 *    when the embedding program passes its own `masterKey` (the till keeps it in the OS keychain),
 *    under that key, with no file written or read.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '../shared/domain.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function newMerchantId(): string {
  return `MCH_${randomString(12, UPPER_DIGITS)}`;
}

export function newKeyPair(environment: Environment): { publicId: string; secret: string } {
  return { publicId: `pk_${environment}_${randomString(24)}`, secret: `sk_${environment}_${randomString(40)}` };
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export const MASTER_KEY_BYTES = 32;

/** The decryption failed: the master key is not the one the data dir's secrets were encrypted with. */
export class MasterKeyMismatch extends Error {
  override name = 'MasterKeyMismatch';
}

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** Uses a master key held by the caller (never written to disk). */
  static fromKey(masterKey: Buffer): SecretBox {
    if (!Buffer.isBuffer(masterKey) || masterKey.length !== MASTER_KEY_BYTES) {
      const got = Buffer.isBuffer(masterKey) ? `${masterKey.length} bytes` : typeof masterKey;
      throw new Error(`masterKey must be a Buffer of exactly ${MASTER_KEY_BYTES} bytes (got ${got})`);
    }
    return new SecretBox(Buffer.from(masterKey));
  }

  /** Loads `master.key` from the data dir, creating it (mode 0600) on first use. */
  static open(dataDir: string): SecretBox {
    const path = join(dataDir, 'master.key');
    if (!existsSync(path)) {
      writeFileSync(path, randomBytes(32), { mode: 0o600, flag: 'wx' });
    }
    chmodSync(path, 0o600);
    const key = readFileSync(path);
    if (key.length !== 32) throw new Error(`${path} must hold exactly 32 bytes`);
    return new SecretBox(key);
  }

  /** iv (12) | tag (16) | ciphertext */
  encrypt(plaintext: string, associatedData: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
  }

  decrypt(blob: Buffer, associatedData: string): string {
    const iv = blob.subarray(0, 12);
    const tag = blob.subarray(12, 28);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new MasterKeyMismatch(
        `The stored secret of key ${associatedData} cannot be decrypted: the master key is not the one this data dir was created with (wrong masterKey, or a replaced master.key)`,
      );
    }
  }
}
