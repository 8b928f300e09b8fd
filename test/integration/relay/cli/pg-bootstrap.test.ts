/**
 * relay/docs/postgresql.md's database bootstrap, run as written against a throwaway PostgreSQL 15 cluster:
 * the relay's role owns its database and may create its tables in `public`; a database it does not
 * own fails with one line naming the fix. And the connection budget: instances × (pool + 1) is
 * compared with max_connections at start (the test cluster has max_connections=200).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { describePg, PG_BIN, usePgCluster } from '../../../support/pg-cluster.js';
import { runRelayCli, spawnRelay } from '../helpers.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

/** The SQL of the document's bootstrap: the here-document of its `psql … <<'SQL'` command. */
function bootstrapFromDoc(): { command: string; sql: string } {
  const doc = readFileSync(join(ROOT, 'relay/docs/postgresql.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Database bootstrap'));
  const m = /```sh\n(.*<<'SQL')\n([\s\S]*?)\nSQL\n```/.exec(section);
  if (!m) throw new Error('relay/docs/postgresql.md: no psql <<SQL block under "Database bootstrap"');
  return { command: m[1]!, sql: m[2]! };
}

describe("relay/docs/postgresql.md's database bootstrap", () => {
  it('is a psql command stopping at the first error, creating a role and a database it owns', () => {
    const { command, sql } = bootstrapFromDoc();
    expect(command).toBe("runuser -u postgres -- psql -v ON_ERROR_STOP=1 <<'SQL'");
    expect(sql).toMatch(/CREATE ROLE relay LOGIN/);
    expect(sql).toMatch(/CREATE DATABASE relay OWNER relay;/);
  });
});

describePg('relay database bootstrap and connection budget on PostgreSQL 15', () => {
  const cluster = usePgCluster();
  let relayUrl = '';

  beforeAll(async () => {
    const { sql } = bootstrapFromDoc();
    // The document's psql, as the superuser, over TCP to the throwaway cluster (runuser -u postgres is the host's part).
    const c = cluster();
    const psql = execFile(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(c.port), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1']);
    psql.stdin!.end(sql);
    const code = await new Promise((resolve) => psql.on('exit', resolve));
    expect(code).toBe(0);
    relayUrl = `postgres://relay:change-me@127.0.0.1:${c.port}/relay`;
  });

  it('the relay role creates its tables in the database it owns', async () => {
    const r = await runRelayCli(['merchant', 'add', '--id', 'MCH_boot'], { RELAY_DATABASE_URL: relayUrl });
    expect(r.stderr).toContain('Merchant MCH_boot added');
    expect(r.code).toBe(0);
    const { stdout } = await run(join(PG_BIN, 'psql'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(cluster().port),
      '-U',
      'postgres',
      '-d',
      'relay',
      '-tAc',
      "SELECT tableowner FROM pg_tables WHERE tablename = 'events'",
    ]);
    expect(stdout.trim()).toBe('relay');
  });

  it('a database the role does not own fails with one line naming the fix', async () => {
    await run(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(cluster().port), '-U', 'postgres', '-c', 'CREATE DATABASE notmine']);
    const r = await runRelayCli(['merchant', 'list'], { RELAY_DATABASE_URL: `postgres://relay@127.0.0.1:${cluster().port}/notmine` });
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Role "relay" may not create the relay's tables in database "notmine" \(owned by "postgres"; permission denied for schema public\): make it the owner \(ALTER DATABASE "notmine" OWNER TO "relay"/,
    );
  });

  it('warns when instances × (pool + 1) does not fit max_connections, and not when it does', async () => {
    const env = { RELAY_DATABASE_URL: relayUrl, RELAY_MASTER_KEY: randomBytes(32).toString('base64') };
    const tooBig = await spawnRelay(['--port', '0', '--pg-pool-size', '150'], env);
    try {
      const warning = tooBig
        .stderr()
        .split('\n')
        .find((l) => l.includes('"pg_pool_too_large"'));
      expect(warning, tooBig.stderr()).toBeDefined();
      expect(JSON.parse(warning!)).toMatchObject({ instances: 2, poolSize: 150, needed: 302, maxConnections: 200, available: 192 });
      expect(JSON.parse(warning!).fix).toMatch(/lower --pg-pool-size to 95 or raise max_connections/);
    } finally {
      tooBig.proc.kill('SIGTERM');
      await tooBig.exited;
    }
    const fits = await spawnRelay(['--port', '0'], { ...env, RELAY_PG_POOL_SIZE: '150', RELAY_INSTANCES: '1' });
    try {
      expect(fits.stderr()).not.toContain('pg_pool_too_large');
    } finally {
      fits.proc.kill('SIGTERM');
      await fits.exited;
    }
    const bad = await runRelayCli(['--port', '0', '--pg-pool-size', '0'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('--pg-pool-size (RELAY_PG_POOL_SIZE): must be a whole number from 1 to 1000, got "0"');
  });
});
