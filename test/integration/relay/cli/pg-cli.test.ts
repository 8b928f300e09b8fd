/**
 * The PostgreSQL relay's CLI, as an operator runs it: merchants, keys (secret on stdin, sealed),
 * tokens (shown once), a clear error without the master key, and `import --from-sqlite`: a
 * single-merchant relay's log copied into a tenant in its order, under a new log id, idempotently.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { relayPageSchema } from '../../../../shared/relay-wire.js';
import { startRelay } from '../../../../relay/http/index.js';
import { describePg, usePgCluster } from '../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { deliver, get, LIVE_KEY, makeConfig, runRelayCli, spawnRelay, SseClient, TEST_KEY, transaction } from '../helpers.js';

const cli = (args: string[], env: Record<string, string>, input?: string) => runRelayCli(args, { RELAY_MASTER_KEY: '', ...env }, { input });

describePg('relay on PostgreSQL: the CLI', () => {
  const cluster = usePgCluster();
  let url: string;
  const masterKey = randomBytes(32).toString('base64');
  const withKey = () => ({ RELAY_DATABASE_URL: url, RELAY_MASTER_KEY: masterKey });

  beforeAll(async () => {
    url = await cluster().createDatabase();
  });

  it('manages merchants, keys and tokens; secrets come on stdin and are stored sealed', async () => {
    expect(await cli(['merchant', 'add', '--id', 'MCH_shop1', '--name', 'Ama Stores', '--database-url', url], {})).toMatchObject({
      code: 0,
    });
    const again = await cli(['merchant', 'add', '--id', 'MCH_shop1', '--database-url', url], {});
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
    expect((await cli(['merchant', 'add', '--id', 'shop 2'], { RELAY_DATABASE_URL: url })).stderr).toMatch(/--merchant|MCH_/);
    expect((await cli(['merchant', 'list'], { RELAY_DATABASE_URL: url })).stdout).toMatch(
      /^MCH_shop1\tAma Stores\tlastSeq=0\tkeys=0\ttokens=0/,
    );

    const noMasterKey = await cli(
      ['key', 'add', '--merchant', 'MCH_shop1', '--public-id', LIVE_KEY.publicId],
      { RELAY_DATABASE_URL: url },
      LIVE_KEY.secret,
    );
    expect(noMasterKey.code).not.toBe(0);
    expect(noMasterKey.stderr).toMatch(/RELAY_MASTER_KEY/);
    const added = await cli(['key', 'add', '--merchant', 'MCH_shop1', '--public-id', LIVE_KEY.publicId], withKey(), `${LIVE_KEY.secret}\n`);
    expect(added.code).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(LIVE_KEY.secret);
    const mismatch = await cli(['key', 'add', '--merchant', 'MCH_shop1', '--public-id', 'pk_test_Other0001'], withKey(), LIVE_KEY.secret);
    expect(mismatch.stderr).toMatch(/secret \(stdin\): is a live key but publicId is a test key/);

    const created = await cli(['token', 'create', '--merchant', 'MCH_shop1', '--label', 'front-counter'], withKey());
    expect(created.code).toBe(0);
    const lines = created.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);

    const client = new pg.Client(url);
    await client.connect();
    try {
      const stored = await client.query('SELECT secret_sealed FROM service_keys');
      expect(stored.rows[0].secret_sealed.includes(Buffer.from(LIVE_KEY.secret))).toBe(false);
      const tokens = await client.query('SELECT token_hash FROM till_tokens');
      expect(JSON.stringify(tokens.rows)).not.toContain(lines[0]);
    } finally {
      await client.end();
    }
    expect((await cli(['token', 'revoke', '--merchant', 'MCH_shop1', '--label', 'front-counter'], withKey())).code).toBe(0);
    expect((await cli(['token', 'revoke', '--merchant', 'MCH_shop1', '--label', 'front-counter'], withKey())).stderr).toMatch(
      /no till labelled/,
    );
    expect((await cli(['key', 'remove', '--public-id', LIVE_KEY.publicId], withKey())).code).toBe(0);
  });

  it('refuses to serve without a master key, saying how to make one', async () => {
    const res = await cli(['--port', '0', '--database-url', url], {});
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/master key.*RELAY_MASTER_KEY.*openssl rand -base64 32/s);
  });

  it('imports a SQLite relay’s log into a tenant: order kept, new log id, idempotent; open streams start again', async () => {
    // A single-merchant relay with a few events, test and live.
    const tmp = tempDir('relay-import');
    const sqliteConfig = makeConfig();
    const single = await startRelay({ dataDir: tmp, config: sqliteConfig.config, log: () => {} });
    const sent = [transaction('live'), transaction('test'), transaction('live'), transaction('live')];
    for (const tx of sent) expect((await deliver(single.url, tx, tx.sandbox ? TEST_KEY : LIVE_KEY)).status).toBe(200);
    const before = relayPageSchema.parse((await get(`${single.url}/v1/transactions?after=0`, sqliteConfig.token)).json);
    await single.close();

    await cli(['merchant', 'add', '--id', 'MCH_moved'], withKey());
    // The shop's keys first: import refuses rows signed by keys that are not the merchant's.
    for (const key of [LIVE_KEY, TEST_KEY])
      await cli(['key', 'add', '--merchant', 'MCH_moved', '--public-id', key.publicId], withKey(), key.secret);
    const token = (await cli(['token', 'create', '--merchant', 'MCH_moved', '--label', 'front-counter'], withKey())).stdout.trim();
    const hosted = await spawnRelay(['--port', '0'], withKey());
    const stream = await SseClient.connect(`${hosted.url}/v1/events`, token);
    try {
      await stream.waitFor((c) => c.messages.some((m) => m.event === 'hello'));
      const firstLogId = (JSON.parse(stream.messages.find((m) => m.event === 'hello')!.data) as { logId: string }).logId;
      // A live delivery before the import: it keeps its number, the copy follows it.
      const early = transaction('live');
      expect((await deliver(hosted.url, early, LIVE_KEY)).json).toMatchObject({ seq: 1 });

      const imported = await cli(['import', '--from-sqlite', tmp, '--merchant', 'MCH_moved'], withKey());
      expect(imported.code).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ merchant: 'MCH_moved', copied: 4, skipped: 0, fromSeq: 1, toSeq: 5 });
      // The log changed identity: the open stream ends, and tills read from the start.
      await stream.waitFor((c) => c.closed, 4_000).catch(() => undefined);
      expect(stream.closed).toBe(true);

      const page = relayPageSchema.parse((await get(`${hosted.url}/v1/transactions?after=0`, token)).json);
      expect(page.logId).not.toBe(firstLogId);
      expect(page.logId).not.toBe(before.logId);
      expect(page.items.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(page.items.map((e) => e.transaction.reference)).toEqual([
        early.reference,
        ...before.items.map((e) => e.transaction.reference),
      ]);
      expect(page.items.slice(1).map((e) => e.environment)).toEqual(['live', 'test', 'live', 'live']);
      expect(page.items[2]!.transaction).toEqual(before.items[1]!.transaction);

      const again = await cli(['import', '--from-sqlite', tmp, '--merchant', 'MCH_moved'], withKey());
      expect(JSON.parse(again.stdout)).toMatchObject({ copied: 0, skipped: 4 });
      expect((await deliver(hosted.url, transaction('live'), LIVE_KEY)).json).toMatchObject({ seq: 6 });
      // A repeat of an imported delivery is a duplicate, not a new event.
      expect((await deliver(hosted.url, sent[0]!, LIVE_KEY)).json).toMatchObject({ duplicate: true, seq: 2 });
    } finally {
      stream.close();
      hosted.proc.kill('SIGTERM');
      await hosted.exited;
      removeDir(tmp);
    }
  });

  afterAll(() => undefined);
});
