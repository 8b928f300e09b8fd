/**
 * `import --from-sqlite` against hostile SQLite files and a real PostgreSQL: a forged
 * `id: 999999` frame once reached a live stream through a copied row, and a row of broken JSON made
 * its merchant's reads answer 503 for good. Every row is now checked first; one bad row refuses the
 * file, named, and nothing is written.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startRelay } from '../../../../../relay/http/index.js';
import { addKey, addMerchant, createToken, importFromSqlite, openPgPool } from '../../../../../relay/store/pg/index.js';
import { relayPageSchema } from '../../../../../shared/relay-wire.js';
import { describePg, usePgCluster } from '../../../../support/pg-cluster.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';
import { deliver, get, LIVE_KEY, makeConfig, TEST_KEY, transaction } from '../../helpers.js';

type Row = Record<string, unknown>;

describePg('relay on PostgreSQL: import --from-sqlite refuses hostile files', () => {
  const cluster = usePgCluster();
  let pool: pg.Pool;
  let databaseUrl: string;
  /** A genuine single-merchant relay's folder: three events, test and live. */
  let genuine: string;
  const dirs: string[] = [];
  let merchants = 0;

  beforeAll(async () => {
    databaseUrl = await cluster().createDatabase();
    pool = await openPgPool(databaseUrl, 2);
    genuine = tempDir('relay-import-genuine');
    dirs.push(genuine);
    const { config } = makeConfig();
    const single = await startRelay({ dataDir: genuine, config, log: () => {} });
    for (const tx of [transaction('live'), transaction('test'), transaction('live')]) {
      expect((await deliver(single.url, tx, tx.sandbox ? TEST_KEY : LIVE_KEY)).status).toBe(200);
    }
    await single.close();
  });
  afterAll(async () => {
    await pool.end();
    for (const d of dirs) removeDir(d);
  });

  /** A copy of the genuine folder, its events changed by `tamper`. */
  function hostileCopy(tamper: (db: Database.Database) => void): string {
    const dir = tempDir('relay-import-hostile');
    dirs.push(dir);
    const source = new Database(join(genuine, 'relay.sqlite'), { readonly: true });
    source.exec(`VACUUM INTO '${join(dir, 'relay.sqlite')}'`);
    source.close();
    const db = new Database(join(dir, 'relay.sqlite'));
    tamper(db);
    db.close();
    return dir;
  }

  async function freshMerchant(): Promise<{ id: string; logId: string }> {
    const id = `MCH_import${++merchants}`;
    await addMerchant(pool, id);
    const { rows } = await pool.query<{ log_id: string }>('SELECT log_id FROM merchants WHERE id = $1', [id]);
    return { id, logId: rows[0]!.log_id };
  }

  async function expectNothingWritten(merchant: { id: string; logId: string }): Promise<void> {
    const { rows } = await pool.query<{ last_seq: string; log_id: string; n: string }>(
      'SELECT last_seq, log_id, (SELECT count(*) FROM events WHERE merchant_id = $1) AS n FROM merchants WHERE id = $1',
      [merchant.id],
    );
    expect(rows[0]).toEqual({ last_seq: '0', log_id: merchant.logId, n: '0' });
  }

  afterEach(() => undefined);

  const liveRow = "(SELECT min(seq) FROM events WHERE environment = 'live')";

  it('refuses a row carrying a forged SSE frame after its JSON, naming the row; nothing written', async () => {
    const dir = hostileCopy((db) =>
      db.exec(`UPDATE events SET transaction_json = transaction_json || char(10) || char(10) ||
        'id: 999999' || char(10) || 'event: transaction' || char(10) || 'data: {"seq":999999}' WHERE seq = ${liveRow}`),
    );
    const merchant = await freshMerchant();
    await expect(importFromSqlite(pool, dir, merchant.id)).rejects.toThrow(
      /Nothing imported: 1 row of .*relay\.sqlite is not an event.*\n {2}row seq 1 \(reference "TX_[^"]+"\): transaction_json is not valid JSON/s,
    );
    await expectNothingWritten(merchant);
  });

  it('refuses broken JSON, a transaction that is not the webhook schema, and one that disagrees with its columns', async () => {
    const cases: Array<[string, string]> = [
      [
        `UPDATE events SET transaction_json = '{"reference":' WHERE seq = 2`,
        'row seq 2 \\(reference "TX_[^"]+"\\): transaction_json is not valid JSON',
      ],
      [
        `UPDATE events SET transaction_json = json_set(transaction_json, '$.amount', 12.5) WHERE seq = 2`,
        'row seq 2 .*transaction_json is not a webhook.s transaction: .*amount',
      ],
      [
        `UPDATE events SET transaction_json = json_set(transaction_json, '$.reference', 'TX_other') WHERE seq = 3`,
        'row seq 3 .*differs from the reference column',
      ],
      [
        `UPDATE events SET transaction_json = json_remove(transaction_json, '$.sandbox') WHERE seq = 2`,
        'row seq 2 .*sandbox does not match',
      ],
      [`UPDATE events SET key_id = 'pk_test_Relay0001' WHERE seq = 1`, 'row seq 1 .*key_id is a test key but environment is live'],
      [`UPDATE events SET received_at = 'yesterday' WHERE seq = 3`, 'row seq 3 .*received_at must be an ISO 8601'],
      [
        `UPDATE events SET transaction_json = json_set(transaction_json, '$.metadata', json('${'{"a":'.repeat(40)}1${'}'.repeat(40)}')) WHERE seq = 1`,
        'row seq 1 .*nested deeper than 32',
      ],
    ];
    for (const [sql, message] of cases) {
      const merchant = await freshMerchant();
      await expect(
        importFromSqlite(
          pool,
          hostileCopy((db) => db.exec(sql)),
          merchant.id,
        ),
        sql,
      ).rejects.toThrow(new RegExp(message, 's'));
      await expectNothingWritten(merchant);
    }
  });

  it('refuses invisible characters in references and client references, shown escaped', async () => {
    for (const [column, field] of [
      ['reference', 'reference'],
      ['client_reference', 'clientReference'],
    ] as const) {
      for (const c of ['\u200b', '\u202e', '\u3164', '\u001b']) {
        const dir = hostileCopy((db) => {
          const row = db.prepare('SELECT * FROM events WHERE seq = 1').get() as Row;
          const value = `${String(row[column])}${c}`;
          const tx = { ...(JSON.parse(row.transaction_json as string) as Row), [field]: value };
          db.prepare(`UPDATE events SET ${column} = ?, transaction_json = ? WHERE seq = 1`).run(value, JSON.stringify(tx));
        });
        const merchant = await freshMerchant();
        const refused = importFromSqlite(pool, dir, merchant.id);
        await expect(refused, `${column} U+${c.codePointAt(0)!.toString(16)}`).rejects.toThrow(
          new RegExp(`row seq 1 .*${column} holds control, invisible or format characters`),
        );
        // The error itself carries no raw control character to the operator's terminal.
        // eslint-disable-next-line no-control-regex -- looking for the very characters
        expect(((await refused.catch((e: Error) => e)) as Error).message).not.toMatch(/[\u001b\u200b\u202e\u3164]/);
        await expectNothingWritten(merchant);
      }
    }
  });

  it('refuses a hand-made file: wrong types in untyped columns, or no events table at all', async () => {
    const dir = tempDir('relay-import-handmade');
    dirs.push(dir);
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, 'relay.sqlite'));
    db.exec(`CREATE TABLE events (seq, reference, client_reference, environment, key_id, received_at, webhook_created_at,
      transaction_json, first_timestamp, latest_timestamp, deliveries)`);
    const tx = transaction('live');
    const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const good = [1, tx.reference, tx.clientReference, 'live', LIVE_KEY.publicId, '2026-11-21T10:00:02.000Z', '2026-11-21T10:00:01.000Z'];
    insert.run(...good, JSON.stringify(tx), 1_800_000_000, 1_800_000_000, 'many');
    insert.run(2, 'TX_two', null, 'live', LIVE_KEY.publicId, '2026-11-21T10:00:02.000Z', '2026-11-21T10:00:01.000Z', '{}', 'now', 0, 1);
    db.close();
    const merchant = await freshMerchant();
    const refused = importFromSqlite(pool, dir, merchant.id);
    await expect(refused).rejects.toThrow(/2 rows .* are not an event.*row seq 1 .*deliveries must be.*row seq 2 .*Unix seconds/s);
    await expectNothingWritten(merchant);

    const other = tempDir('relay-import-other');
    dirs.push(other);
    mkdirSync(other, { recursive: true });
    new Database(join(other, 'relay.sqlite')).exec('CREATE TABLE notes (text)').close();
    await expect(importFromSqlite(pool, other, merchant.id)).rejects.toThrow(
      /relay\.sqlite is not a relay database this relay can read: no such table: events/,
    );
  });

  it("refuses a file signed with keys that are not the merchant's, naming the rows; nothing written", async () => {
    const merchant = await freshMerchant();
    // Another shop's file: the merchant holds none of the keys that signed it (keys belong to one merchant only).
    await expect(importFromSqlite(pool, genuine, merchant.id)).rejects.toThrow(
      new RegExp(
        `Nothing imported: 3 rows of .* were signed by a key that is not one of ${merchant.id}'s \\(${LIVE_KEY.publicId}, ${TEST_KEY.publicId}\\)`,
      ),
    );
    await expectNothingWritten(merchant);
  });

  it('imports a genuine file; again it copies nothing and keeps the log id; a changed final state is reported by row and not stored; each import audited', async () => {
    const merchant = await freshMerchant();
    for (const key of [TEST_KEY, LIVE_KEY]) await addKey(pool, Buffer.alloc(32, 7), merchant.id, key.publicId, key.secret);
    const first = await importFromSqlite(pool, genuine, merchant.id);
    expect(first).toMatchObject({ copied: 3, skipped: 0, fromSeq: 0, toSeq: 3 });
    expect(first.logId).not.toBe(merchant.logId);
    const again = await importFromSqlite(pool, genuine, merchant.id);
    expect(again).toEqual({ copied: 0, skipped: 3, conflicts: [], fromSeq: 3, toSeq: 3, logId: first.logId });
    const { rows } = await pool.query<{ log_id: string }>('SELECT log_id FROM merchants WHERE id = $1', [merchant.id]);
    expect(rows[0]!.log_id).toBe(first.logId);

    // The imported events read back whole through a relay.
    const token = await createToken(pool, merchant.id, 'front-counter');
    const hosted = await startRelay({ databaseUrl, masterKey: Buffer.alloc(32, 7), config: {}, log: () => {} });
    try {
      const page = relayPageSchema.parse((await get(`${hosted.url}/v1/transactions?after=0`, token)).json);
      expect(page.logId).toBe(first.logId);
      expect(page.items.map((e) => [e.seq, e.environment])).toEqual([
        [1, 'live'],
        [2, 'test'],
        [3, 'live'],
      ]);
    } finally {
      await hosted.close();
    }

    // The same file with one row's final state changed: reported by row, the stored state kept.
    const changed = hostileCopy((db) => {
      db.exec(`UPDATE events SET transaction_json = json_set(transaction_json, '$.description', 'Another final state') WHERE seq = 2`);
    });
    const changedImport = await importFromSqlite(pool, changed, merchant.id);
    const stored = await pool.query<{ reference: string; transaction_json: string }>(
      'SELECT reference, transaction_json FROM events WHERE merchant_id = $1 AND seq = 2',
      [merchant.id],
    );
    expect(changedImport).toMatchObject({ copied: 0, skipped: 2 });
    expect(changedImport.conflicts).toEqual([
      { row: `row seq 2 (reference "${stored.rows[0]!.reference}")`, environment: 'test', fields: ['description'] },
    ]);
    expect(JSON.parse(stored.rows[0]!.transaction_json).description).not.toBe('Another final state');
    const audit = await pool.query<{ action: string; detail: Record<string, unknown> }>(
      "SELECT action, detail FROM admin_audit WHERE merchant_id = $1 AND action = 'merchant.import' ORDER BY id",
      [merchant.id],
    );
    expect(audit.rows.map((r) => r.detail)).toEqual([
      expect.objectContaining({ copied: 3, skipped: 0, conflicts: 0 }),
      expect.objectContaining({ copied: 0, skipped: 3, conflicts: 0 }),
      expect.objectContaining({ copied: 0, skipped: 2, conflicts: 1 }),
    ]);
  });
});
