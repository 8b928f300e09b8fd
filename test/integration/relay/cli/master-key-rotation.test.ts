/**
 * The master-key rotation commands of relay/docs/postgresql.md work as written: the `sh` block under
 * "Rotating the master key" is run by bash against a real PostgreSQL 15, with /etc/momo-relay moved to a temporary
 * folder. Afterwards the new key file is in place (0600), the old one kept, and the secrets open only
 * with the new key.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { addKey, addMerchant, decodeKey, openPgPool } from '../../../../relay/store/pg/index.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { LIVE_KEY, TEST_KEY } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

function rotationBlock(): string {
  const doc = readFileSync(join(ROOT, 'relay/docs/postgresql.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Rotating the master key'));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m?.[1]) throw new Error('no sh block under "Rotating the master key" in relay/docs/postgresql.md');
  return m[1];
}

describePg('relay/docs/postgresql.md: rotating the master key', () => {
  const cluster = usePgCluster();
  const dir = tempDir('relay-rotation');
  afterAll(() => removeDir(dir));

  it('runs as written', { timeout: 180_000 }, async () => {
    const url = await cluster().createDatabase();
    const oldKey = randomBytes(32);
    const pool = await openPgPool(url, 2);
    try {
      await addMerchant(pool, 'MCH_ama');
      await addKey(pool, oldKey, 'MCH_ama', LIVE_KEY.publicId, LIVE_KEY.secret);
      writeFileSync(join(dir, 'master.key'), `${oldKey.toString('base64')}\n`, { mode: 0o600 });
      const script = rotationBlock().replaceAll('/etc/momo-relay', dir);
      const proc = spawn('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: ROOT,
        env: { ...process.env, RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: '', RELAY_MASTER_KEY_FILE: '' },
      });
      let stderr = '';
      proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
      expect(stderr).toMatch(/Master key rotated: 1 secret/);
      expect(code).toBe(0);
      const newKey = decodeKey(readFileSync(join(dir, 'master.key'), 'utf8'), 'new');
      expect(newKey.equals(oldKey)).toBe(false);
      expect(decodeKey(readFileSync(join(dir, 'master.key.old'), 'utf8'), 'old').equals(oldKey)).toBe(true);
      expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      await expect(addKey(pool, oldKey, 'MCH_ama', TEST_KEY.publicId, TEST_KEY.secret)).rejects.toThrow(/not the relay's/);
      await addKey(pool, newKey, 'MCH_ama', TEST_KEY.publicId, TEST_KEY.secret);
    } finally {
      await pool.end();
    }
  });
});
