/** The keychain store's answer to a keyring that fails: a busy one is asked again, one that keeps failing is reported. */
import { describe, expect, it } from 'vitest';
import { createKeychainStore, type KeychainEntry } from '../../../../electron/core/storage/index.js';

/** A keyring whose first `failures` calls fail (as a D-Bus call that times out), then keeps `stored`. */
function flakyKeyring(failures: number) {
  let calls = 0;
  let stored: string | null = null;
  const pauses: number[] = [];
  const call = async <T>(answer: () => T): Promise<T> => {
    calls++;
    if (calls <= failures) throw new Error('org.freedesktop.DBus.Error.NoReply: Did not receive a reply');
    return answer();
  };
  const entry: KeychainEntry = {
    getPassword: () => call(() => stored),
    setPassword: (value: string) => call(() => void (stored = value)),
    deletePassword: () => call(() => ((stored = null), true)),
  };
  const store = createKeychainStore(
    'momo-till.test',
    () => entry,
    async (ms) => void pauses.push(ms),
  );
  return { store, pauses, calls: () => calls };
}

describe('createKeychainStore', () => {
  it('asks a busy keyring again, twice, before it gives up: one slow answer does not stop the till', async () => {
    const { store, pauses } = flakyKeyring(2);
    await store.set('live.secret-key', 'sk_live_x');
    expect(pauses).toEqual([250, 1_000]);
    expect(await store.get('live.secret-key')).toBe('sk_live_x');
  });

  it('reports a keyring that keeps failing as unavailable, in words for the cashier (no D-Bus details)', async () => {
    const { store, calls } = flakyKeyring(10);
    const failed = await store.get('live.secret-key').catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' });
    expect(String((failed as Error).message)).not.toMatch(/DBus/);
    expect(calls()).toBe(3);
  });

  it('answers null for an entry that is not there, without asking again', async () => {
    const { store, calls, pauses } = flakyKeyring(0);
    expect(await store.get('test.relay-token')).toBeNull();
    expect(calls()).toBe(1);
    expect(pauses).toEqual([]);
  });
});
