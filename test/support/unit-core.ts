/** A real till core for unit tests: a fresh data folder, an in-memory secret store, no embedded services. */
import { afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemorySecretStore, createTillCore, type TillCore } from '../../electron/core/index.js';

export type UnitCore = { dir: string; core: TillCore; close(): Promise<void> };

/** Opens the core in a new folder named from `prefix`; `close` shuts it and removes the folder. */
export async function openUnitCore(prefix: string): Promise<UnitCore> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const core = await createTillCore({ dataDir: dir, embedded: false, secretStore: createMemorySecretStore(), log: () => undefined });
  return {
    dir,
    core,
    close: async () => {
      await core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs `pin` in and returns the id of the shift that is open for them (signing in opens one). */
export async function signInShift(core: TillCore, pin: string): Promise<string> {
  await core.invoke('session:signIn', { pin });
  const shift = await core.invoke('shifts:current', {});
  if (!shift) throw new Error('no shift open after sign-in');
  return shift.id;
}

/** A fresh core before each test of the calling file, closed after it: `unit.core` and `unit.dir` are the running test's. */
export function unitCorePerTest(prefix: string): Pick<UnitCore, 'core' | 'dir'> {
  let current: UnitCore | undefined;
  beforeEach(async () => {
    current = await openUnitCore(prefix);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const open = (): UnitCore => {
    if (!current) throw new Error('the core is open only while a test runs');
    return current;
  };
  return {
    get core() {
      return open().core;
    },
    get dir() {
      return open().dir;
    },
  };
}
