/**
 * The PostgreSQL relay's admin commands as an operator types them, against a real
 * PostgreSQL 15: `key add` with another master key exits non-zero and writes nothing; lists with
 * --json; merchant suspend/resume/remove (refused while events are unread, unless the flag names their count); log-id new; admin tokens; master-key rotate from stdin, into the key file.
 * Each command is its own process, as slow as the machine is loaded: one test, a long time-out.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminTokenWithId, openPgPool } from '../../../../relay/store/pg/index.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { LIVE_KEY, relayEntry, runRelayCli, TEST_KEY } from '../helpers.js';

const cli = (args: string[], env: Record<string, string>, input = '') =>
  runRelayCli(args, { RELAY_MASTER_KEY: '', RELAY_MASTER_KEY_FILE: '', ...env }, { input });

describePg('relay on PostgreSQL: the admin commands', () => {
  const cluster = usePgCluster();
  let url: string;
  const masterKey = randomBytes(32).toString('base64');
  const keyDir = tempDir('relay-admin-key');
  afterAll(() => removeDir(keyDir));

  beforeAll(async () => {
    url = await cluster().createDatabase();
  });

  it(
    'refuses a wrong master key, lists as JSON, suspends, removes, renews log ids, rotates the master key',
    { timeout: 400_000 },
    async () => {
      const env = () => ({ RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: masterKey });
      const run = async (args: string[], input?: string, extra: Record<string, string> = {}) => {
        const r = await cli(args, { ...env(), ...extra }, input);
        return r;
      };
      expect((await run(['merchant', 'add', '--id', 'MCH_ama'])).code).toBe(0);
      expect((await run(['key', 'add', '--merchant', 'MCH_ama', '--public-id', LIVE_KEY.publicId], LIVE_KEY.secret)).code).toBe(0);

      const wrong = await run(['key', 'add', '--merchant', 'MCH_ama', '--public-id', TEST_KEY.publicId], TEST_KEY.secret, {
        RELAY_MASTER_KEY: randomBytes(32).toString('base64'),
      });
      expect(wrong.code).not.toBe(0);
      expect(wrong.stderr).toMatch(/not the relay's/);
      expect(wrong.stderr).not.toMatch(/\n\s+at /); // one clear line, no stack trace

      const keys = await run(['key', 'list', '--merchant', 'MCH_ama', '--json']);
      expect(JSON.parse(keys.stdout)).toEqual([
        { publicId: LIVE_KEY.publicId, merchantId: 'MCH_ama', environment: 'live', createdAt: expect.any(String), lastUsedAt: null },
      ]);
      expect((await run(['token', 'create', '--merchant', 'MCH_ama', '--label', 'front-counter'])).code).toBe(0);
      expect(JSON.parse((await run(['token', 'list', '--json'])).stdout)).toMatchObject([
        { merchantId: 'MCH_ama', label: 'front-counter', lastUsedAt: null },
      ]);

      expect((await run(['merchant', 'remove', '--id', 'MCH_ama'])).stderr).toMatch(/not suspended: suspend it first/);
      expect((await run(['merchant', 'suspend', '--id', 'MCH_ama'])).code).toBe(0);
      expect(JSON.parse((await run(['merchant', 'list', '--json'])).stdout)).toMatchObject([
        { id: 'MCH_ama', suspendedAt: expect.any(String) },
      ]);

      const client = new pg.Client(url);
      await client.connect();
      try {
        const before = (await client.query("SELECT log_id FROM merchants WHERE id = 'MCH_ama'")).rows[0].log_id as string;
        const renewed = await run(['log-id', 'new', '--all']);
        expect(renewed.code).toBe(0);
        expect(renewed.stdout).toMatch(/^MCH_ama\t\S+\n$/);
        expect((await client.query("SELECT log_id FROM merchants WHERE id = 'MCH_ama'")).rows[0].log_id).not.toBe(before);

        const admin = await run(['admin-token', 'create', '--label', 'ops', '--expires-in', '30d']);
        expect(admin.stdout.trim()).toMatch(/^at_[A-Za-z0-9_-]{43}$/);
        expect(admin.stderr).toMatch(/^Admin token 1 \("ops"\) created, refused after 20\d\d-/);
        expect((await run(['admin-token', 'create', '--label', 'x', '--expires-in', '30'])).stderr).toMatch(
          /--expires-in: a number of days or hours/,
        );
        const listed = (await run(['admin-token', 'list'])).stdout;
        expect(listed).toMatch(/^1\tops\tcreated=\S+\tlastUsed=never\texpires=20\d\d-\S+$/m);
        expect((await run(['admin-token', 'revoke', '--label', 'ops'])).code).toBe(0);
        const [ops] = JSON.parse((await run(['admin-token', 'list', '--json'])).stdout) as Array<{ expiresAt: string }>;
        expect(ops).toMatchObject({ id: 1, label: 'ops', revokedAt: expect.any(String) });
        expect(Date.parse(ops!.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

        const newKey = randomBytes(32).toString('base64');
        const sealed = (await client.query('SELECT secret_sealed FROM service_keys')).rows[0].secret_sealed as Buffer;
        // The rotation writes the new key into the key file it read, and keeps the old one beside it.
        const keyFile = join(keyDir, 'master.key');
        writeFileSync(keyFile, `${masterKey}\n`, { mode: 0o600 });
        const rotated = await run(['master-key', 'rotate', '--master-key-file', keyFile], `${newKey}\n`);
        expect(rotated.code).toBe(0);
        expect(JSON.parse(rotated.stdout)).toEqual({ resealed: 1 });
        expect(readFileSync(keyFile, 'utf8').trim()).toBe(newKey);
        expect(readFileSync(`${keyFile}.old`, 'utf8').trim()).toBe(masterKey);
        expect(((await client.query('SELECT secret_sealed FROM service_keys')).rows[0].secret_sealed as Buffer).equals(sealed)).toBe(false);
        // The old key is now refused; the new one works.
        expect((await run(['key', 'add', '--merchant', 'MCH_ama', '--public-id', TEST_KEY.publicId], TEST_KEY.secret)).code).not.toBe(0);
        const withNew = await run(['key', 'add', '--merchant', 'MCH_ama', '--public-id', TEST_KEY.publicId], TEST_KEY.secret, {
          RELAY_MASTER_KEY: newKey,
        });
        expect(withNew.code).toBe(0);

        // An acknowledged event that no till has read: refused, naming the count and the flag that names it.
        await client.query(
          `INSERT INTO events (merchant_id, seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json,
             first_timestamp, latest_timestamp) VALUES ('MCH_ama', 1, 'TX1', 'live', $1, '2026-01-01', '2026-01-01', '{}', 1, 1)`,
          [LIVE_KEY.publicId],
        );
        const unread = await run(['merchant', 'remove', '--id', 'MCH_ama']);
        expect(unread.stderr).toMatch(
          /has 1 acknowledged event\(s\) that no till has read.*merchant remove --id MCH_ama --discard-unread 1/,
        );
        expect(unread.code).not.toBe(0);
        const removed = await run(['merchant', 'remove', '--id', 'MCH_ama', '--discard-unread', '1']);
        expect(removed.stderr).toMatch(/Merchant MCH_ama removed, with its keys, tokens and 1 events \(1 of them read by no till\)/);
        expect(removed.code).toBe(0);
        expect((await client.query('SELECT count(*)::int AS n FROM service_keys')).rows[0].n).toBe(0);
        const actions = (await client.query('SELECT actor, action FROM admin_audit ORDER BY id')).rows;
        expect(actions.map((r: { action: string }) => r.action)).toEqual([
          'merchant.add',
          'key.add',
          'token.create',
          'merchant.suspend',
          'log-id.new',
          'admin-token.create',
          'admin-token.revoke',
          'master-key.rotate',
          'key.add',
          'merchant.remove',
        ]);
        expect(actions.every((r: { actor: string }) => r.actor.startsWith('cli:'))).toBe(true);
      } finally {
        await client.end();
      }
    },
  );

  it(
    'pages every list as the admin API does: --limit and the next cursor, stable while items arrive; whole without --limit',
    { timeout: 120_000 },
    async () => {
      const pagedUrl = await cluster().createDatabase();
      const env = { RELAY_DATABASE_URL: pagedUrl };
      const pool = await openPgPool(pagedUrl, 1);
      try {
        // More merchants than one read of the store (1000) brings.
        await pool.query(
          "INSERT INTO merchants (id, log_id) SELECT 'MCH_p' || lpad(n::text, 4, '0'), 'log' || n FROM generate_series(0, 1002) AS n",
        );
        const whole = await cli(['merchant', 'list'], env);
        expect(
          whole.stdout
            .split('\n')
            .filter(Boolean)
            .map((l) => l.split('\t')[0]),
        ).toEqual(Array.from({ length: 1003 }, (_, n) => `MCH_p${String(n).padStart(4, '0')}`));

        const first = await cli(['merchant', 'list', '--limit', '2'], env);
        expect(first.stdout).toMatch(/^MCH_p0000\t.*\nMCH_p0001\t.*\n$/);
        const cursor = /^More follow: the same command with --after (\S+)$/m.exec(first.stderr)?.[1];
        expect(cursor).toBeDefined();
        await pool.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_a', 'log-a')"); // before the cursor: shifts nothing
        const next = await cli(['merchant', 'list', '--limit', '2', '--after', cursor!, '--json'], env);
        expect((JSON.parse(next.stdout) as Array<{ id: string }>).map((m) => m.id)).toEqual(['MCH_p0002', 'MCH_p0003']);
        expect((await cli(['merchant', 'list', '--after', 'not-a-cursor!'], env)).stderr).toMatch(/^--after: not a cursor this list gave/);

        // The audit, newest first, and admin tokens by number.
        await createAdminTokenWithId(pool, 'ops-1');
        await createAdminTokenWithId(pool, 'ops-2');
        const audit = await cli(['audit', 'list', '--limit', '1'], env);
        expect(audit.stdout).toMatch(/^2\t\S+\tcli:\S+\tadmin-token\.create\t-\t/);
        const older = /--after (\S+)$/m.exec(audit.stderr)![1]!;
        expect(JSON.parse((await cli(['audit', 'list', '--after', older, '--json'], env)).stdout)).toMatchObject([
          { id: 1, action: 'admin-token.create' },
        ]);
        const tokens = await cli(['admin-token', 'list', '--limit', '1'], env);
        expect(tokens.stdout).toMatch(/^1\tops-1\t[^\n]*\n$/);
        expect(tokens.stderr).toMatch(/^More follow: the same command with --after \S+$/m);
      } finally {
        await pool.end();
      }

      // A reader that stops early ends the whole list quietly, mid-way through its pages.
      const { execFile } = await import('node:child_process');
      const { promisify } = await import('node:util');
      const { fileURLToPath } = await import('node:url');
      const { stdout, stderr } = await promisify(execFile)(
        'sh',
        ['-c', `"${process.execPath}" ${relayEntry().join(' ')} merchant list | head -n 1`],
        {
          cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
          env: { ...process.env, RELAY_DATABASE_URL: pagedUrl },
        },
      ); // exit 0: head's, and the relay said nothing on stderr
      expect(stdout).toMatch(/^MCH_a\t[^\n]*\n$/);
      expect(stderr).toBe('');
    },
  );
});
