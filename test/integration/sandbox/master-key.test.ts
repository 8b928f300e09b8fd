/**
 * The `masterKey` option: an embedding program (the till) keeps the key that encrypts the secrets at
 * rest itself, so no `master.key` file is ever written to the data dir; the same key opens the data dir
 * again, a wrong one is refused with a clear error, and a key of the wrong length is refused up front.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../../sandbox/server.js';
import { api, paymentBody, quietLog } from './helpers.js';
import { tempDirs } from '../../support/temp-dir.js';

const dirs = tempDirs('sandbox-master-key');
const dataDir = dirs.make;
afterAll(dirs.removeAll);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('startSandbox({ masterKey })', () => {
  it('writes no master.key, keeps the secrets out of every file, and opens again with the same key', async () => {
    const dir = dataDir();
    const masterKey = randomBytes(32);
    const first = await startSandbox({ dataDir: dir, masterKey, log: quietLog });
    const keys = first.keys;
    await first.close();
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
    const files = filesUnder(dir);
    expect(files.some((f) => f.endsWith('sandbox.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(masterKey), `${file} holds the master key`).toBe(false);
      for (const secret of [keys.test.secret, keys.live.secret])
        expect(bytes.includes(Buffer.from(secret.slice(8))), `${file} holds a secret`).toBe(false);
    }

    const second = await startSandbox({ dataDir: dir, masterKey: Buffer.from(masterKey), log: quietLog });
    try {
      expect(second.keys).toEqual(keys);
      // The decrypted secret still authenticates an API request.
      const init = await api(second.baseUrl, '/v1/payments/initialize', {
        creds: { merchantId: second.merchantId, secret: keys.test.secret },
        body: paymentBody('http://127.0.0.1:9/hook'),
      });
      expect(init.status).toBe(202);
    } finally {
      await second.close();
    }
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
  });

  it('refuses a different key for the same data dir with a clear error, and frees the data dir', async () => {
    const dir = dataDir();
    const first = await startSandbox({ dataDir: dir, masterKey: randomBytes(32), log: quietLog });
    await first.close();
    await expect(startSandbox({ dataDir: dir, masterKey: randomBytes(32), log: quietLog })).rejects.toThrow(
      /cannot be decrypted: the master key is not the one this data dir was created with/,
    );
    // Without a key the simulator would fall back to a fresh master.key file: refused the same way.
    await expect(startSandbox({ dataDir: dir, log: quietLog })).rejects.toThrow(/master key is not the one this data dir was created with/);
  });

  it('refuses a master key that is not 32 bytes, naming the option', async () => {
    const dir = dataDir();
    await expect(startSandbox({ dataDir: dir, masterKey: randomBytes(16), log: quietLog })).rejects.toThrow(
      'masterKey must be a Buffer of exactly 32 bytes (got 16 bytes)',
    );
    expect(existsSync(join(dir, 'master.key'))).toBe(false);
  });

  it('without the option, the standalone simulator keeps its master.key file (mode 0600)', async () => {
    const dir = dataDir();
    const handle = await startSandbox({ dataDir: dir, log: quietLog });
    await handle.close();
    expect(readFileSync(join(dir, 'master.key'))).toHaveLength(32);
  });
});
