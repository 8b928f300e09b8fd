import { describe, expect, it } from 'vitest';
import { hashPin, LOCKOUT_MS, MAX_ATTEMPTS, OwnerSession, verifyPin } from '../../../electron/core/owner.js';

describe('owner PIN', () => {
  it('is hashed with scrypt and a random salt; only the right PIN verifies', async () => {
    const a = await hashPin('2468');
    const b = await hashPin('2468');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('2468');
    expect(await verifyPin('2468', a)).toBe(true);
    expect(await verifyPin('2469', a)).toBe(false);
    expect(await verifyPin('2468', 'garbage')).toBe(false);
  });

  it('locks out after repeated wrong PINs, then accepts again', async () => {
    let now = 1_000_000;
    const session = new OwnerSession(
      () => now,
      60_000,
      () => {},
    );
    const hash = await hashPin('1357');
    for (let i = 0; i < MAX_ATTEMPTS; i += 1) expect(await session.check('0000', hash)).toBe(false);
    await expect(session.check('1357', hash)).rejects.toThrow(/Too many wrong PINs. Try again in 60 seconds/);
    now += LOCKOUT_MS;
    expect(await session.check('1357', hash)).toBe(true);
  });

  it('a session ends on its own and slides forward while used', () => {
    let now = 0;
    const changes: boolean[] = [];
    const session = new OwnerSession(
      () => now,
      10_000,
      (unlocked) => changes.push(unlocked),
    );
    expect(() => session.require('hash')).toThrow(/owner PIN/);
    expect(() => session.require(null)).toThrow(/Set an owner PIN first/);
    session.unlock();
    now = 9_000;
    session.require('hash');
    now = 18_000;
    expect(session.unlocked).toBe(true);
    now = 19_001;
    expect(session.unlocked).toBe(false);
    session.unlock();
    session.lock();
    expect(changes).toEqual([true, true, false]);
  });
});
