/** PIN hashing and the rules a new PIN must meet. */
import { describe, expect, it } from 'vitest';
import { hashPin, pinProblem, verifyPin } from '../../../../electron/core/people/pin.js';

describe('PIN', () => {
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

  it('a new PIN is refused with a message saying which rule it breaks', () => {
    expect(pinProblem('123')).toMatch(/too short/);
    expect(pinProblem('1234567')).toMatch(/too long/);
    expect(pinProblem('7777')).toMatch(/all one digit/);
    expect(pinProblem('12a4')).toMatch(/digits only/);
    expect(pinProblem('2468')).toBeNull();
    expect(pinProblem('135790')).toBeNull();
  });
});
