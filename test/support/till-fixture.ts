/**
 * The till integration fixture: a fresh temp folder holding the real sandbox and relay on loopback
 * (startServices) and a till core at <root>/till, opened before the file's first test and closed
 * after its last. With `connected`, the owner's TEST settings point at those services and the
 * relay connection is up before the first test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { join } from 'node:path';
import type { TillCoreOptions } from '../../electron/core/index.js';
import { configureTest, openCore, startServices, waitForEvent, type LoggedCore, type Services } from '../integration/core/helpers.js';
import { removeDir, tempDir } from './temp-dir.js';

export type TillFixture = {
  root: string;
  services: Services;
  /** The till under test; a test may close it and put a reopened core here (it is closed at the end). */
  core: LoggedCore;
  /** The till's data folder, <root>/till. */
  dataDir: string;
};

/** `core`: options for the till's core (e.g. its till name) on top of openCore's. */
export function useTill(name: string, options: { connected?: boolean; core?: Partial<TillCoreOptions> } = {}): TillFixture {
  const till = {} as TillFixture;
  beforeAll(async () => {
    till.root = tempDir(name);
    till.services = await startServices(till.root);
    till.dataDir = join(till.root, 'till');
    till.core = await openCore(till.dataDir, options.core);
    if (!options.connected) return;
    await configureTest(till.core, till.services);
    // Connected in time on a quiet machine; a test that needs the stream waits for its own result.
    await waitForEvent(till.core, 'relay:state', (p) => p.state === 'connected' && p.environment === 'test').catch(() => undefined);
  });
  afterEach(() => till.services?.clock.release()); // a failed test must not leave the customers held
  afterAll(async () => {
    await till.core?.close();
    await till.services?.close();
    if (till.root) removeDir(till.root);
  });
  return till;
}
