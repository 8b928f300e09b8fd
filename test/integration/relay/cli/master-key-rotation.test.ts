/**
 * The master-key rotation of relay/docs/postgresql.md, run as written against a real PostgreSQL 15 and
 * two instances of the built relay running as a non-root service user (`nobody` when the tests run as
 * root, as the guide's `momo-relay` user would): both blocks under "Rotating the master key" are run by
 * bash as root, the operator, with /etc/momo-relay and /opt/momo-relay moved to a temporary folder (the
 * installed `momo-relay` is the built relay/dist/cli.js). The rotation writes the new key file itself,
 * readable by the service user; both instances keep serving and start again on it; the clean-up
 * removes the old key only once nothing needs it. A rotation with nowhere to keep the new key is
 * refused, and an instance left on the previous key says so in its log, its metrics and its health.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, it } from 'vitest';
import { addKey, addMerchant, createAdminToken, decodeKey, openPgPool, sealedWith } from '../../../../relay/store/pg/index.js';
import { readDoc } from '../../../support/doc-blocks.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { deliver, get, LIVE_KEY, runRelayCli, TEST_KEY, transaction } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const doc = readDoc('relay/docs/postgresql.md');
const asRoot = process.getuid?.() === 0;
/** The service's user: a user that is not root, when we are root; else ourselves. */
const SERVICE = asRoot ? { name: 'nobody', uid: 65534, gid: 65534 } : null;

const blocks = (): string[] => {
  const section = doc.text.slice(doc.text.indexOf('## Rotating the master key'), doc.text.indexOf('## Suspending a merchant'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
};

/** Waits for what an instance said (its log lines come on stderr, its ready line on stdout) to match. */
async function said(i: { out: () => string }, pattern: RegExp): Promise<void> {
  const until = Date.now() + 20_000;
  while (!pattern.test(i.out())) {
    if (Date.now() > until) throw new Error(`never said ${pattern}: ${i.out()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

type Instance = { proc: ChildProcess; url: string; adminUrl?: string; out: () => string; exited: Promise<number | null> };

describePg('relay/docs/postgresql.md: rotating the master key, two instances, as the service user', () => {
  const cluster = usePgCluster();
  const dir = tempDir('relay-rotation');
  const etc = join(dir, 'etc');
  const opt = join(dir, 'opt');
  const running: Instance[] = [];
  afterEach(() => {
    for (const i of running.splice(0)) i.proc.kill('SIGTERM');
  });
  afterAll(() => removeDir(dir));

  function asService(path: string): void {
    if (SERVICE) chownSync(path, SERVICE.uid, SERVICE.gid);
  }

  function setUp(url: string, oldKey: Buffer): void {
    chmodSync(dir, 0o755);
    mkdirSync(etc, { recursive: true, mode: 0o755 });
    mkdirSync(join(opt, 'node_modules/.bin'), { recursive: true });
    if (!existsSync(join(opt, 'node_modules/.bin/momo-relay'))) {
      symlinkSync(join(ROOT, 'relay/dist/cli.js'), join(opt, 'node_modules/.bin/momo-relay'));
    }
    writeFileSync(join(etc, 'master.key'), `${oldKey.toString('base64')}\n`, { mode: 0o600 });
    asService(join(etc, 'master.key'));
    writeFileSync(join(etc, 'relay.env'), `RELAY_DATABASE_URL=${url}\n`, { mode: 0o600 });
  }

  /** Runs a document's block as written (paths moved), as root; its exit code and what it said. */
  async function runBlock(block: string, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const script = block.replaceAll('/etc/momo-relay', etc).replaceAll('/opt/momo-relay', opt);
    const proc = spawn('bash', ['-c', script], { cwd: dir, env: { PATH: process.env.PATH ?? '' } });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    proc.stdin.end(stdin ?? '');
    const code = await new Promise<number | null>((resolve) => proc.on('exit', resolve));
    return { code, stdout, stderr };
  }

  /** Starts the built relay as the service user, reading the key file the unit names. */
  async function startInstance(url: string, args: string[] = []): Promise<Instance> {
    const relayArgs = [join(ROOT, 'relay/dist/cli.js'), '--port', '0', '--master-key-file', join(etc, 'master.key'), ...args];
    const env = { PATH: process.env.PATH ?? '', RELAY_DATABASE_URL: url, RELAY_INSTANCES: '2' };
    const proc = SERVICE
      ? spawn('runuser', ['-u', SERVICE.name, '--', process.execPath, ...relayArgs], { cwd: dir, env })
      : spawn(process.execPath, relayArgs, { cwd: dir, env });
    let out = '';
    let err = '';
    proc.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    proc.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    const first = await new Promise<{ url: string; adminUrl?: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line: ${err}`)), 60_000);
      proc.stdout!.on('data', () => {
        const nl = out.indexOf('\n');
        if (nl >= 0) {
          clearTimeout(timer);
          resolve(JSON.parse(out.slice(0, nl)) as { url: string; adminUrl?: string });
        }
      });
      void exited.then((code) => reject(new Error(`the relay exited with ${code}: ${err}`)));
    });
    const instance = { proc, ...first, out: () => out + err, exited };
    running.push(instance);
    return instance;
  }

  it(
    'rotates with the installed command, the key file readable by the service user; the old key goes only when unneeded',
    { timeout: 240_000 },
    async () => {
      const url = await cluster().createDatabase();
      const oldKey = randomBytes(32);
      const pool = await openPgPool(url, 2);
      try {
        await addMerchant(pool, 'MCH_ama');
        await addKey(pool, oldKey, 'MCH_ama', LIVE_KEY.publicId, LIVE_KEY.secret);
        setUp(url, oldKey);
        const [rotate, cleanUp] = blocks();
        expect(rotate).toMatch(/^set -euo pipefail\n/);
        expect(cleanUp).toMatch(/^set -euo pipefail\n/);
        for (const block of [rotate!, cleanUp!]) expect(block).not.toContain('npm run');

        // Before the rotation, the clean-up refuses: the key it would shred is the relay's.
        writeFileSync(join(etc, 'master.key.old'), `${oldKey.toString('base64')}\n`, { mode: 0o600 });
        const early = await runBlock(cleanUp!);
        expect(early.stderr).toMatch(/is still needed: it is the relay's master key, and 1 of 1 secret/);
        expect(early.code).toBe(2);
        expect(existsSync(join(etc, 'master.key.old'))).toBe(true);
        // A rotation would not overwrite an old key left behind.
        const leftOver = await runBlock(rotate!);
        expect(leftOver.stderr).toMatch(/master\.key\.old is left from an earlier rotation/);
        expect(leftOver.code).not.toBe(0);
        expect((await sealedWith(pool, oldKey)).checkValue).toBe(true);
        await runBlock(`rm ${join(etc, 'master.key.old')}`);

        const a = await startInstance(url);
        const b = await startInstance(url);
        const rotated = await runBlock(rotate!);
        expect(rotated.stderr).toMatch(/Master key rotated: 1 secret\(s\) re-sealed in one transaction and read back/);
        expect(rotated.code).toBe(0);

        const newKey = decodeKey(readFileSync(join(etc, 'master.key'), 'utf8'), 'new');
        expect(newKey.equals(oldKey)).toBe(false);
        expect(decodeKey(readFileSync(join(etc, 'master.key.old'), 'utf8'), 'old').equals(oldKey)).toBe(true);
        expect(existsSync(join(etc, 'master.key.new'))).toBe(false);
        for (const file of ['master.key', 'master.key.old']) {
          const st = statSync(join(etc, file));
          expect(st.mode & 0o777).toBe(0o600);
          if (SERVICE) expect(st.uid).toBe(SERVICE.uid);
        }
        expect(await sealedWith(pool, newKey)).toEqual({ checkValue: true, secrets: [LIVE_KEY.publicId], total: 1 });

        // Both instances serve through the rotation, then start again, one at a time, on the new key file.
        const accepted = async (i: Instance) => (await deliver(i.url, transaction('live'), LIVE_KEY)).status;
        expect(await accepted(a)).toBe(200);
        expect(await accepted(b)).toBe(200);
        for (const old of [a, b]) {
          old.proc.kill('SIGTERM');
          await old.exited;
          const restarted = await startInstance(url);
          await said(restarted, /"msg":"relay_started".*"masterKey":"current"/);
          expect(await accepted(restarted)).toBe(200);
        }

        const cleaned = await runBlock(cleanUp!);
        expect(cleaned.stderr).toMatch(/Nothing is sealed with .*master\.key\.old \(1 secret\(s\) checked\)/);
        expect(cleaned.code).toBe(0);
        expect(existsSync(join(etc, 'master.key.old'))).toBe(false);
        // Keys added afterwards are sealed with the new key.
        await addKey(pool, newKey, 'MCH_ama', TEST_KEY.publicId, TEST_KEY.secret);
      } finally {
        await pool.end();
      }
    },
  );

  it(
    'refuses to rotate with nowhere to keep the new key (`openssl rand -base64 32 | momo-relay master-key rotate`)',
    { timeout: 60_000 },
    async () => {
      const url = await cluster().createDatabase();
      const key = randomBytes(32);
      const pool = await openPgPool(url, 2);
      try {
        await addMerchant(pool, 'MCH_ama');
        await addKey(pool, key, 'MCH_ama', LIVE_KEY.publicId, LIVE_KEY.secret);
        const r = await runRelayCli(
          ['master-key', 'rotate'],
          { RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: key.toString('base64'), RELAY_MASTER_KEY_FILE: '' },
          {
            input: randomBytes(32).toString('base64'),
          },
        );
        expect(r.stderr).toMatch(/writes the new key into the key file the instances read: give --master-key-file/);
        expect(r.stderr).not.toMatch(/rotated/);
        expect(r.code).not.toBe(0);
        expect(await sealedWith(pool, key)).toEqual({ checkValue: true, secrets: [LIVE_KEY.publicId], total: 1 });
      } finally {
        await pool.end();
      }
    },
  );

  it('an instance left on the previous key says so: log line, metric and admin health', { timeout: 90_000 }, async () => {
    const url = await cluster().createDatabase();
    const relayKey = randomBytes(32);
    const staleKey = randomBytes(32);
    const pool = await openPgPool(url, 2);
    try {
      await addMerchant(pool, 'MCH_ama');
      await addKey(pool, relayKey, 'MCH_ama', LIVE_KEY.publicId, LIVE_KEY.secret);
      const adminToken = await createAdminToken(pool, 'ops');
      setUp(url, staleKey);
      writeFileSync(join(etc, 'master.key.previous'), `${relayKey.toString('base64')}\n`, { mode: 0o600 });
      asService(join(etc, 'master.key.previous'));
      const stale = await startInstance(url, ['--master-key-previous-file', join(etc, 'master.key.previous'), '--admin-port', '0']);
      await said(stale, /"msg":"master_key_previous"/);
      expect((await get(`${stale.adminUrl!}/metrics`)).body).toMatch(/^relay_master_key_previous 1$/m);
      const health = await get(`${stale.adminUrl!}/admin/v1/health`, adminToken);
      expect(health.json).toMatchObject({ masterKey: 'previous' });
      // The same instance on the relay's key: nothing said.
      stale.proc.kill('SIGTERM');
      await stale.exited;
      setUp(url, relayKey);
      const fine = await startInstance(url, ['--admin-port', '0']);
      await said(fine, /"msg":"relay_started"/);
      expect(fine.out()).not.toMatch(/master_key_previous"/);
      expect((await get(`${fine.adminUrl!}/metrics`)).body).toMatch(/^relay_master_key_previous 0$/m);
    } finally {
      await pool.end();
    }
  });
});
