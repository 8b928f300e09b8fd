/**
 * Start-up errors as an operator meets them: each is ONE line on stderr with no stack
 * trace, and an unreachable database at start is waited for with a logged back-off instead of an exit
 * (under systemd's Restart=always an exit is a restart loop that hides the cause). Real PostgreSQL,
 * stopped and started again; a real port in use.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';
import { LIVE_KEY, relayEntry, runRelayCli } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** One line for the operator (besides the relay's JSON log lines), and nothing that looks like a stack frame. */
function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('{"ts":'));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(pattern);
}

describe('relay start-up errors (no database needed)', () => {
  const tmp = tempDir('relay-startup');
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    removeDir(tmp);
  });
  const keys = JSON.stringify([LIVE_KEY]);

  it('a port in use is one line naming the port', async () => {
    const r = await runRelayCli(['--port', String(busyPort), '--data', join(tmp, 'data')], { RELAY_KEYS: keys });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, new RegExp(`127\\.0\\.0\\.1:${busyPort}: the port is already in use`));
  });

  it('a config with several faults is one line naming each field', async () => {
    const file = join(tmp, 'bad.json');
    writeFileSync(file, JSON.stringify({ keys: [LIVE_KEY], maxBodyBytes: 1, heartbeatSeconds: 99 }));
    const r = await runRelayCli(['--port', '0', '--data', join(tmp, 'data'), '--config', file]);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^Invalid relay config \(.*bad\.json\): maxBodyBytes: .*; heartbeatSeconds: /);
  });

  it('a SQLite file that cannot be opened is one line naming the data folder (ProtectSystem=strict without ReadWritePaths)', async () => {
    // As root no folder is unwritable; a folder where relay.sqlite should be fails the same way (SQLITE_CANTOPEN).
    const data = join(tmp, 'cantopen');
    mkdirSync(join(data, 'relay.sqlite'), { recursive: true, mode: 0o700 });
    const r = await runRelayCli(['--port', '0', '--data', data], { RELAY_KEYS: keys });
    expect(r.code).toBe(2);
    expectOneLine(
      r.stderr,
      /^Cannot open the relay's SQLite file in its data folder \(--data, RELAY_DATA_DIR\): unable to open database file\. .*ReadWritePaths=/,
    );
  });

  it('a malformed master key is one line, without the key', async () => {
    const r = await runRelayCli(['--port', '0', '--database-url', 'postgres://relay@127.0.0.1:1/relay'], {
      RELAY_MASTER_KEY: 'not-base64!!',
    });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^RELAY_MASTER_KEY: must be base64/);
    expect(r.stderr).not.toContain('not-base64!!');
  });
});

describePg('relay start-up errors on PostgreSQL', () => {
  const cluster = usePgCluster();
  let url = '';
  const masterKey = randomBytes(32).toString('base64');
  beforeAll(async () => {
    url = await cluster().createDatabase();
  });

  it('a CLI command against an unreachable database says so in one line, without the password', async () => {
    const r = await runRelayCli(['merchant', 'list'], { RELAY_DATABASE_URL: 'postgres://relay:s3cret@127.0.0.1:1/relay' });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^Cannot reach the relay database \(connect ECONNREFUSED 127\.0\.0\.1:1\)$/);
    expect(r.stderr).not.toContain('s3cret');
  });

  it("a wrong master key at start is one line saying it is not the relay's (its check value does not open)", async () => {
    expect((await runRelayCli(['merchant', 'add', '--id', 'MCH_keyed'], { RELAY_DATABASE_URL: url })).code).toBe(0);
    const add = spawn(process.execPath, [...relayEntry(), 'key', 'add', '--merchant', 'MCH_keyed', '--public-id', LIVE_KEY.publicId], {
      cwd: ROOT,
      env: { ...process.env, RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: masterKey },
    });
    add.stdin.end(LIVE_KEY.secret);
    expect(await new Promise((resolve) => add.on('exit', resolve))).toBe(0);

    const other = randomBytes(32).toString('base64');
    const r = await runRelayCli(['--port', '0'], { RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: other });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /^This master key is not the relay's/);
  });

  it('waits for a database unreachable at start, with a logged back-off, then serves', async () => {
    await cluster().stopFast();
    const proc = spawn(process.execPath, [...relayEntry(), '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: masterKey },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    proc.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    try {
      const waits = () =>
        stderr
          .split('\n')
          .filter((l) => l.includes('"database_unreachable"'))
          .map((l) => JSON.parse(l) as { attempt: number; retryInMs: number; error: string; level: string });
      await waitFor(() => waits().length >= 3, 30_000, 'three database_unreachable lines');
      expect(proc.exitCode).toBeNull();
      expect(stdout).toBe('');
      const [first, second, third] = waits();
      expect([first!.attempt, second!.attempt, third!.attempt]).toEqual([1, 2, 3]);
      expect(second!.retryInMs).toBe(first!.retryInMs * 2);
      expect(third!.retryInMs).toBe(second!.retryInMs * 2);
      expect(first!.level).toBe('warn');
      expect(first!.error).toMatch(/^Cannot reach the relay database/);
      expect(stderr).not.toMatch(/^\s+at /m);

      await cluster().start();
      await waitFor(() => stdout.includes('\n'), 40_000, 'the ready line');
      expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ ready: true });
      expect(stderr).toContain('"database_reachable"');
    } finally {
      proc.kill('SIGTERM');
      await exited;
      await cluster()
        .start()
        .catch(() => undefined);
    }
  }, 90_000);
});
