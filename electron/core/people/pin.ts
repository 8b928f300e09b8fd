/**
 * PINs: hashed with scrypt (random salt, parameters stored with the hash), compared in constant
 * time, and the rules a new PIN must meet (the message says which rule it broke).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (pin: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(pin, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

/** Staff PINs are 4 to 6 digits; an owner PIN set before staff existed may be up to 8 and is kept. */
export const PIN_MIN = 4;
export const PIN_MAX = 6;

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

/** What is wrong with a new PIN's digits on their own, or null (uniqueness is checked against the others). */
export function pinProblem(pin: string): string | null {
  if (!/^[0-9]*$/.test(pin)) return 'A PIN is digits only.';
  if (pin.length < PIN_MIN) return `This PIN is too short: use ${PIN_MIN} to ${PIN_MAX} digits.`;
  if (pin.length > PIN_MAX) return `This PIN is too long: use ${PIN_MIN} to ${PIN_MAX} digits.`;
  if (/^(.)\1*$/.test(pin)) return 'This PIN is all one digit, which is easy to guess: mix the digits.';
  return null;
}

export const PIN_TAKEN_MESSAGE = 'Another person on this till already has this PIN: choose a different one.';
