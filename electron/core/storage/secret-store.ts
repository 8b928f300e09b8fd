/**
 * Where the till keeps its two secrets per environment (the service's secret key and the relay
 * token): the OS keychain, never a file. On Linux the Secret Service store is pinned: the kernel
 * keyring forgets everything at reboot, so a missing Secret Service is a clear error, never a
 * silent fallback.
 */
import { AsyncEntry } from '@napi-rs/keyring';
import { createHash } from 'node:crypto';
import type { Environment } from '../../../shared/domain.js';
import { CoreError } from '../errors.js';

export type SecretStore = {
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<void>;
};

const KEYCHAIN_MESSAGE =
  "The computer's keychain is not available, so the till cannot keep its keys safely. On Linux, install and unlock a Secret Service keyring (GNOME Keyring or KWallet), then restart the till.";

/** A service name unique to a data folder, so two tills (or two tests) never share entries. */
export function keychainServiceName(dataDir: string): string {
  return `momo-till.${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
}

/** One keychain entry, as @napi-rs/keyring gives it (a parameter so that a test can stand in a keyring that fails). */
export type KeychainEntry = Pick<AsyncEntry, 'getPassword' | 'setPassword' | 'deletePassword'>;

/**
 * Pauses before each further attempt: a keyring that is busy (its D-Bus service slow to answer on a loaded
 * machine) usually answers a moment later, and the till should not stop for that. Only a keyring that keeps
 * failing is reported unavailable.
 */
const RETRY_PAUSES_MS = [250, 1_000];

export function createKeychainStore(
  service: string,
  entryFor: (account: string) => KeychainEntry = (account) => new AsyncEntry(service, account, { linux: { store: 'secret-service' } }),
  pause: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): SecretStore {
  const wrap = async <T>(action: () => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await action();
      } catch (error) {
        // The keyring's own message (D-Bus details) is not for the cashier.
        void error;
        const wait = RETRY_PAUSES_MS[attempt];
        if (wait === undefined) throw new CoreError('KEYCHAIN_UNAVAILABLE', KEYCHAIN_MESSAGE);
        await pause(wait);
      }
    }
  };
  return {
    get: (account) => wrap(() => entryFor(account).getPassword()).then((value) => value ?? null),
    set: (account, value) => wrap(() => entryFor(account).setPassword(value)),
    delete: (account) => wrap(async () => void (await entryFor(account).deletePassword())),
  };
}

/** Accounts used in the keychain, per environment. */
export const secretAccount = (environment: Environment, what: 'secret-key' | 'relay-token') => `${environment}.${what}`;

/** In-memory store for unit tests that are not about the keychain itself. */
export function createMemorySecretStore(): SecretStore & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: async (account) => entries.get(account) ?? null,
    set: async (account, value) => void entries.set(account, value),
    delete: async (account) => void entries.delete(account),
  };
}
