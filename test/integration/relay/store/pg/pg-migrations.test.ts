/**
 * The relay's PostgreSQL migrations on a real PostgreSQL 15 (a throwaway cluster), each on a database at the
 * version before with rows in it, and the history the runner checks: recorded once by version and name, a
 * newer database or one whose history disagrees with the migrations refused untouched. Elsewhere: migration
 * 5 and 14 in tenant-input.test.ts, migration 9 in pg-owner-summary.test.ts.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { migratePg, openPgPool, PG_MIGRATIONS, PG_SCHEMA_VERSION, waitForDatabase } from '../../../../../relay/store/pg/index.js';
import { closeAfterEach } from '../../../../support/close-after-each.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { frontAmaRow, hourOf, summarySaleJson } from '../../../../support/owner-summary-sales.js';

describePg('relay on PostgreSQL: the migrations', () => {
  const cluster = usePgCluster();
  const open = closeAfterEach();

  /** A client on a new database at `version`, closed after the test. */
  async function databaseAt(version: number): Promise<pg.Client> {
    const client = new pg.Client(await cluster().createDatabase());
    await client.connect();
    open.push({ close: () => client.end() });
    await migratePg(client, version);
    return client;
  }

  const history = async (client: pg.ClientBase) =>
    (await client.query<{ version: number; name: string }>('SELECT version, name FROM relay_schema_migrations ORDER BY version')).rows;

  it('migrations 1 and 2: tables, triggers and relay_commit, recorded once; a newer database is refused', async () => {
    const url = await cluster().createDatabase();
    const pool = await openPgPool(url, 2);
    open.push({ close: () => pool.end() });
    const client = new pg.Client(url);
    await client.connect();
    try {
      const versions = await client.query('SELECT version, name FROM relay_schema_migrations ORDER BY version');
      expect(versions.rows.map((r: { version: number }) => r.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
      expect(PG_SCHEMA_VERSION).toBe(14);
      const tables = await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
      expect(tables.rows.map((r: { tablename: string }) => r.tablename)).toEqual(
        expect.arrayContaining(['auth_version', 'events', 'merchants', 'service_keys', 'till_tokens']),
      );
      await expect(client.query("INSERT INTO merchants (id, log_id) VALUES ('shop-1', 'x')")).rejects.toThrow(/check constraint/);
      expect(await migratePg(client)).toBe(14); // already current: nothing runs again
      await client.query("INSERT INTO relay_schema_migrations (version, name) VALUES (99, 'from the future')");
      await expect(migratePg(client)).rejects.toThrow(/schema version 99, newer than this relay understands/);
    } finally {
      await client.end();
    }
  });

  it('migration 3: a version-2 log keeps its events, numbering and repeats; the key becomes (merchant, reference, environment)', async () => {
    const url = await cluster().createDatabase();
    const client = new pg.Client(url);
    await client.connect();
    try {
      await migratePg(client, 2);
      await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_old', 'old-log')");
      const commit = (refs: string[]) =>
        client.query('SELECT * FROM relay_commit($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
          'MCH_old',
          refs.map(() => 'live'),
          refs,
          refs,
          refs.map(() => 'pk_live_Old00001'),
          refs.map(() => 'r'),
          refs.map(() => 'w'),
          refs.map((r) => JSON.stringify({ reference: r })),
          refs.map(() => 100),
        ]);
      await commit(['A', 'B']);
      // Up to 3 only: migration 9 gives relay_commit the owner's summary arguments (pg-owner-summary.test.ts).
      expect(await migratePg(client, 3)).toBe(2);
      const after = await commit(['B', 'C', 'C']);
      expect(after.rows.map((r: { o_kind: string; o_seq: string }) => `${r.o_kind}:${r.o_seq}`)).toEqual([
        'duplicate:2',
        'accepted:3',
        'duplicate:3',
      ]);
      const keys = await client.query("SELECT conname FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'u'");
      expect(keys.rows.map((r: { conname: string }) => r.conname)).toEqual(['events_merchant_reference_environment']);
    } finally {
      await client.end();
    }
  });

  it('migration 7: sums the events stored before it once, by hour, till, cashier and network; viewer links', async () => {
    const client = await databaseAt(6);
    await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_one', 'log-one')");
    const tx = (reference: string, status: string, amount: string) =>
      summarySaleJson(reference, status, amount, '2026-11-20T10:15:00.000Z');
    await client.query('SELECT * FROM relay_commit($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
      'MCH_one',
      ['live', 'live'],
      ['A', 'B'],
      ['A', 'B'],
      ['pk_live_Mig00001', 'pk_live_Mig00001'],
      ['2026-11-20T10:16:00.000Z', '2026-11-20T10:16:00.000Z'],
      ['w', 'w'],
      [tx('A', 'SUCCESS', '12.50'), tx('B', 'FAILED', '7.00')],
      [1, 1],
    ]);
    expect(await migratePg(client, 7)).toBe(6);
    const summary = await client.query(
      `SELECT merchant_id, environment, hour::text, till_id, till_name, cashier_id, cashier_name, network,
         succeeded::int, failed::int, gross::text, fees::text FROM owner_hourly`,
    );
    expect(summary.rows).toEqual([
      {
        merchant_id: 'MCH_one',
        environment: 'live',
        ...frontAmaRow('2026-11-20T10:15:00.000Z'),
        hour: String(hourOf('2026-11-20T10:15:00.000Z')),
        succeeded: 1,
        failed: 1,
        gross: '1250',
        fees: '10',
      },
    ]);
    await client.query(
      `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at)
       VALUES ('L1', 'MCH_one', $1, 'live', 'Phone', 'Africa/Accra', 'till', 'now')`,
      [`sha256:${'a'.repeat(64)}`],
    );
    await expect(
      client.query(
        `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at)
         VALUES ('L2', 'MCH_one', 'plain', 'live', 'Phone', 'Africa/Accra', 'till', 'now')`,
      ),
    ).rejects.toThrow(/check constraint/);
  });

  it('migration 8: names the owner for every link turned off before it, nobody for the links still on', async () => {
    const client = await databaseAt(7);
    await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_one', 'log-one')");
    const link = (id: string, hash: string, revokedAt: string | null) =>
      client.query(
        `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at, revoked_at)
         VALUES ($1, 'MCH_one', $2, 'live', $1, 'Africa/Accra', 'till', 'now', $3)`,
        [id, `sha256:${hash.repeat(64)}`, revokedAt],
      );
    await link('on', 'a', null);
    await link('off', 'b', '2026-11-22T10:00:00.000Z');
    expect(await migratePg(client, 8)).toBe(7);
    const { rows } = await client.query('SELECT id, revoked_at, revoked_by FROM owner_links ORDER BY id');
    expect(rows).toEqual([
      { id: 'off', revoked_at: '2026-11-22T10:00:00.000Z', revoked_by: 'owner' },
      { id: 'on', revoked_at: null, revoked_by: null },
    ]);
    await expect(client.query("UPDATE owner_links SET revoked_by = 'someone'")).rejects.toThrow(/check constraint/);
  });

  it("migration 10: spends the links' old invitations, ties each to its till's token, turns off those whose token is gone", async () => {
    const client = await databaseAt(9);
    await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_one', 'log-one')");
    const tokenHash = `sha256:${'c'.repeat(64)}`;
    await client.query("INSERT INTO till_tokens (merchant_id, label, token_hash) VALUES ('MCH_one', 'front', $1)", [tokenHash]);
    const link = (id: string, hash: string, createdBy: string, lastUsed: string | null) =>
      client.query(
        `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at, last_used_at)
         VALUES ($1, 'MCH_one', $2, 'live', $1, 'Africa/Accra', $3, '2026-11-21T10:00:00.000Z', $4)`,
        [id, `sha256:${hash.repeat(64)}`, createdBy, lastUsed],
      );
    await link('kept', 'a', 'front', '2026-11-22T10:00:00.000Z');
    await link('orphan', 'b', 'gone-till', null);
    expect(await migratePg(client, 10)).toBe(9);
    const { rows } = await client.query(
      'SELECT id, invite_expires_at, invite_used_at, created_by_token, revoked_at IS NOT NULL AS off, revoked_by FROM owner_links ORDER BY id',
    );
    expect(rows).toEqual([
      {
        id: 'kept',
        invite_expires_at: '2026-11-21T10:00:00.000Z',
        invite_used_at: '2026-11-22T10:00:00.000Z',
        created_by_token: tokenHash,
        off: false,
        revoked_by: null,
      },
      {
        id: 'orphan',
        invite_expires_at: '2026-11-21T10:00:00.000Z',
        invite_used_at: '2026-11-21T10:00:00.000Z',
        created_by_token: null,
        off: true,
        revoked_by: 'operator',
      },
    ]);
    await client.query(
      `INSERT INTO owner_devices (id, link_id, credential_hash, name, created_at, last_seen_at, expires_at)
       VALUES ('od_1', 'kept', $1, 'iPhone', 'a', 'a', 'b')`,
      [`sha256:${'d'.repeat(64)}`],
    );
    await client.query("DELETE FROM owner_links WHERE id = 'kept'");
    expect((await client.query('SELECT count(*)::int AS n FROM owner_devices')).rows[0]).toEqual({ n: 0 });
  });

  it('migration 11: relay_prune_batch sets aside an event jsonb cannot read, keeps its reference, and prunes the rest', async () => {
    const client = await databaseAt(10);
    try {
      await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_old', 'x')");
      const row = (seq: number, json: string) =>
        client.query(
          `INSERT INTO events (merchant_id, seq, reference, environment, key_id, received_at, webhook_created_at, transaction_json,
             first_timestamp, latest_timestamp) VALUES ('MCH_old', $1, $2, 'live', 'pk_live_x', '2026-01-01', '2026-01-01', $3, 1, 1)`,
          [seq, `TX${seq}`, json],
        );
      await row(1, '{"a":1}');
      await row(2, '{"description":"x\\u0000"}');
      await row(3, '{"a":3}');
      // Before: one unreadable event fails the whole batch.
      await expect(client.query("SELECT relay_prune('MCH_old', '2026-06-01', 10)")).rejects.toThrow(/unsupported Unicode escape/);
      await migratePg(client);
      const { rows } = await client.query("SELECT * FROM relay_prune_batch('MCH_old', '2026-06-01', 10)");
      expect(rows).toEqual([
        { o_count: 3, o_from: '1', o_through: '3', o_set_aside: ['2'], o_reasons: [expect.stringMatching(/unsupported Unicode escape/)] },
      ]);
      expect((await client.query('SELECT count(*)::int AS n FROM events')).rows).toEqual([{ n: 0 }]);
      expect((await client.query('SELECT seq, reference FROM events_set_aside')).rows).toEqual([{ seq: '2', reference: 'TX2' }]);
      expect(
        (await client.query('SELECT reference FROM pruned_references ORDER BY seq')).rows.map((r: { reference: string }) => r.reference),
      ).toEqual(['TX1', 'TX2', 'TX3']);
    } finally {
      await client.end();
    }
  });

  it("migration 12: till_reads, empty (a log's events count as unread until its tills next read), gone with its merchant", async () => {
    const client = await databaseAt(11);
    await client.query("INSERT INTO merchants (id, log_id, last_seq) VALUES ('MCH_old', 'x', 4)");
    await migratePg(client);
    expect((await client.query('SELECT count(*)::int AS n FROM till_reads')).rows).toEqual([{ n: 0 }]);
    const hash = `sha256:${'a'.repeat(64)}`;
    await client.query("INSERT INTO till_reads VALUES ('MCH_old', $1, 'front', 3, now())", [hash]);
    await expect(client.query("INSERT INTO till_reads VALUES ('MCH_old', 'plain', 'front', 3, now())")).rejects.toThrow(/check constraint/);
    await client.query("DELETE FROM merchants WHERE id = 'MCH_old'");
    expect((await client.query('SELECT count(*)::int AS n FROM till_reads')).rows).toEqual([{ n: 0 }]);
  });

  it("migration 14: an owner link's label loses the invisible and bidirectional characters it held, and none can be stored", async () => {
    const client = await databaseAt(13);
    await client.query("INSERT INTO merchants (id, log_id) VALUES ('MCH_one', 'log-one')");
    const link = (id: string, label: string) =>
      client.query(
        `INSERT INTO owner_links (id, merchant_id, token_hash, environment, label, time_zone, created_by, created_at)
         VALUES ($1, 'MCH_one', $2, 'live', $3, 'Africa/Accra', 'till', 'now')`,
        [id, `sha256:${id.slice(-1).repeat(64)}`, label],
      );
    await link('ol_a', 'Ama\u200bphone \u202eevil');
    await link('ol_b', 'Kofi\u200d\u2764');
    await migratePg(client, 14);
    expect((await client.query('SELECT id, label FROM owner_links ORDER BY id')).rows).toEqual([
      { id: 'ol_a', label: 'Ama phone evil' },
      { id: 'ol_b', label: 'Kofi\u200d\u2764' }, // a joiner is no forbidden character
    ]);
    await expect(link('ol_c', 'x\u2066y')).rejects.toThrow(/owner_links_label_printable/);
  });

  it('a newer schema: served untouched when its migrations are additive; else waited out (logged, retried), never an exit', async () => {
    const url = await cluster().createDatabase();
    const client = new pg.Client(url);
    await client.connect();
    open.push({ close: () => client.end() });
    await migratePg(client);
    // Each version records the oldest schema whose relay still serves it: additive ones keep version 1's.
    expect((await client.query('SELECT DISTINCT oldest_reader FROM relay_schema_migrations WHERE version = 12')).rows).toEqual([
      { oldest_reader: 1 },
    ]);
    const next = PG_SCHEMA_VERSION + 1;
    // The next release added a table: this relay serves the database as it is, without touching it.
    await client.query("INSERT INTO relay_schema_migrations (version, name, oldest_reader) VALUES ($1, 'a later table', 1)", [next]);
    expect(await migratePg(client)).toBe(next);
    const pool = await openPgPool(url, 1);
    await pool.end();
    // The one after dropped what this relay uses: a start waits, saying why, and goes on once it can serve.
    await client.query("INSERT INTO relay_schema_migrations (version, name, oldest_reader) VALUES ($1, 'a column dropped', $1)", [
      next + 1,
    ]);
    await expect(migratePg(client)).rejects.toThrow(
      new RegExp(
        `schema version ${next + 1}, newer than this relay understands \\(${PG_SCHEMA_VERSION}\\), and it needs a relay of schema ${next + 1}`,
      ),
    );
    const said: Array<Record<string, unknown>> = [];
    let waiting = true;
    const opened = waitForDatabase(() => openPgPool(url, 1), { log: (l) => said.push(l), firstDelayMs: 20, maxDelayMs: 50 }).finally(() => {
      waiting = false;
    });
    await expect.poll(() => said.filter((l) => l.msg === 'schema_too_new').length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(waiting).toBe(true);
    expect(said[0]).toMatchObject({ level: 'error', msg: 'schema_too_new', error: expect.stringMatching(/Run a newer relay/) });
    // Rolled back (or this instance replaced): it serves.
    await client.query('DELETE FROM relay_schema_migrations WHERE version = $1', [next + 1]);
    await (await opened).end();
  });

  it("records each version once under its file's name; an older database upgrades, its history kept", async () => {
    const client = await databaseAt(4);
    expect((await history(client)).map((r) => r.version)).toEqual([1, 2, 3, 4]);
    expect(await migratePg(client)).toBe(4);
    expect(await history(client)).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    expect(await migratePg(client)).toBe(PG_SCHEMA_VERSION);
  });

  it('refuses a database whose recorded history is not these migrations, untouched, saying what to do', async () => {
    const client = await databaseAt(PG_SCHEMA_VERSION);
    await client.query("UPDATE relay_schema_migrations SET name = 'relay_commit' WHERE version = 2");
    const before = await history(client);
    await expect(migratePg(client)).rejects.toThrow(
      /The relay database records migration 2 as "relay_commit", but this build's migration 2 is "relay_commit: per-merchant gapless group commit".*nothing was changed.*restore a backup/s,
    );
    expect(await history(client)).toEqual(before);

    const older = await databaseAt(5);
    await older.query("UPDATE relay_schema_migrations SET name = 'admin' WHERE version = 4");
    await expect(migratePg(older)).rejects.toThrow(
      /records migration 4 as "admin", but this build's migration 4 is "admin: master key check/,
    );
    expect((await history(older)).map((r) => r.version)).toEqual([1, 2, 3, 4, 5]);

    const gap = await databaseAt(PG_SCHEMA_VERSION);
    await gap.query('DELETE FROM relay_schema_migrations WHERE version = 3');
    await expect(migratePg(gap)).rejects.toThrow(
      new RegExp(`has no record of migration 3 although it says it is at version ${PG_SCHEMA_VERSION}`),
    );
  });
});
