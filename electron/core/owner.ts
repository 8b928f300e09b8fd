/**
 * The owner PIN: hashed with scrypt (random salt, parameters stored with the hash), compared in
 * constant time, with a short lock-out after repeated wrong attempts, and an owner session that
 * ends on its own after `sessionMs`.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { CoreError } from './errors.js';

const scrypt = (pin: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pin, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;
export const MAX_ATTEMPTS = 5;
export const LOCKOUT_MS = 60_000;

export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(pin, salt, KEYLEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] as string, 'base64');
  const expected = Buffer.from(parts[5] as string, 'base64');
  const key = await scrypt(pin, salt, expected.length, { N: n, r, p, maxmem: 256 * n * r * 2 });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export class OwnerSession {
  private unlockedUntil = 0;
  private failures = 0;
  private lockedOutUntil = 0;

  constructor(
    private readonly now: () => number,
    private readonly sessionMs: number,
    private readonly onChange: (unlocked: boolean, until: number | null) => void,
  ) {}

  get unlocked(): boolean {
    return this.now() < this.unlockedUntil;
  }

  get until(): number | null {
    return this.unlocked ? this.unlockedUntil : null;
  }

  /** Checks a PIN against the stored hash, counting failures; throws while locked out. */
  async check(pin: string, pinHash: string | null): Promise<boolean> {
    if (!pinHash) throw new CoreError('PIN_NOT_SET', 'Set an owner PIN first.');
    const now = this.now();
    if (now < this.lockedOutUntil) {
      const seconds = Math.ceil((this.lockedOutUntil - now) / 1000);
      throw new CoreError('WRONG_PIN', `Too many wrong PINs. Try again in ${seconds} seconds.`);
    }
    const ok = /^[0-9]{4,8}$/.test(pin) && (await verifyPin(pin, pinHash));
    if (ok) {
      this.failures = 0;
      return true;
    }
    this.failures += 1;
    if (this.failures >= MAX_ATTEMPTS) {
      this.failures = 0;
      this.lockedOutUntil = now + LOCKOUT_MS;
    }
    return false;
  }

  unlock(): void {
    this.unlockedUntil = this.now() + this.sessionMs;
    this.onChange(true, this.unlockedUntil);
  }

  lock(): void {
    const was = this.unlocked;
    this.unlockedUntil = 0;
    if (was) this.onChange(false, null);
  }

  /** Throws unless an owner session is open (and slides it forward while the owner works). */
  require(pinHash: string | null): void {
    if (!pinHash) throw new CoreError('PIN_NOT_SET', 'Set an owner PIN first (Settings asks for it on first run).');
    if (!this.unlocked) throw new CoreError('OWNER_LOCKED', 'This needs the owner: enter the owner PIN.');
    this.unlockedUntil = this.now() + this.sessionMs;
  }
}
