/**
 * A restored database is noticed without the operator's help, on both stores (a SQLite file copied back
 * from its online backup; a PostgreSQL database restored with pg_restore from pg_dump). The scenario: a
 * backup; five deliveries a till reads; the restore (no `log-id new`); seven new deliveries, all
 * acknowledged, numbered again over the five the till read. A till resuming from its cursor names the
 * event it read there (its receivedAt): paging answers 409 CURSOR_FORKED, the stream sends `event: reset`
 * and reads on from 0, and the till's real relay client gets all seven.
 */
import { execFile } from 'node:child_process';
import { globalAgent } from 'node:http';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { relayPageSchema, type RelayEvent } from '../../../../shared/relay-wire.js';
import { startRelay, type RunningRelay } from '../../../../relay/http/index.js';
import { DB_FILE_NAME } from '../../../../relay/store/sqlite/index.js';
import { describePg, PG_BIN, usePgCluster, type PgCluster } from '../../../support/pg-cluster.js';
import { waitFor } from '../../../support/wait-for.js';
import { deliver, get, makeConfig, SseClient, TEST_KEY, transaction } from '../helpers.js';
import { seedPgTenant } from '../stores.js';
import { tillRelayClient } from '../till-client.js';

const run = promisify(execFile);

/** The restored relay answers where the old one did: a till keeps its cursor only for the same relay URL. */
const portOf = (relay: RunningRelay) => Number(new URL(relay.url).port);

type Restorable = { relay: RunningRelay; token: string; backup(): Promise<void>; restore(): Promise<void>; close(): Promise<void> };

/**
 * A relay that `start` opens on a store, backed up by `backup` and put back by `putBack` while it is stopped
 * (it starts again on the same port); `dir` holds the backup and goes on close.
 */
async function restorable(
  dir: string,
  token: string,
  start: (port?: number) => Promise<RunningRelay>,
  steps: { backup(): Promise<void>; putBack(): Promise<void> },
): Promise<Restorable> {
  const r: Restorable = {
    relay: await start(),
    token,
    backup: steps.backup,
    async restore() {
      const port = portOf(r.relay);
      await r.relay.close();
      await steps.putBack();
      r.relay = await start(port);
      globalAgent.destroy(); // sockets kept alive to the stopped relay would answer ECONNRESET
    },
    async close() {
      await r.relay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return r;
}

async function sqliteRestorable(): Promise<Restorable> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-restore-'));
  const made = makeConfig();
  const file = join(dir, DB_FILE_NAME);
  const copy = join(dir, 'backup.db');
  const start = (port?: number) => startRelay({ dataDir: dir, config: made.config, log: () => {}, port });
  return restorable(dir, made.token, start, {
    async backup() {
      const db = new Database(file, { readonly: true });
      await db.backup(copy);
      db.close();
    },
    async putBack() {
      for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
      copyFileSync(copy, file);
    },
  });
}

async function pgRestorable(cluster: PgCluster): Promise<Restorable> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-restore-'));
  const dump = join(dir, 'relay.dump');
  const { databaseUrl, masterKey, token } = await seedPgTenant(cluster);
  const start = (port?: number) => startRelay({ databaseUrl, masterKey, config: {}, log: () => {}, port });
  return restorable(dir, token, start, {
    async backup() {
      await run(join(PG_BIN, 'pg_dump'), ['--format=custom', `--file=${dump}`, `--dbname=${databaseUrl}`]);
    },
    async putBack() {
      const args = ['--clean', '--if-exists', '--single-transaction', '--exit-on-error', '--no-owner', `--dbname=${databaseUrl}`, dump];
      await run(join(PG_BIN, 'pg_restore'), args);
    },
  });
}

async function send(r: Restorable, n: number) {
  const sent = Array.from({ length: n }, () => transaction('test'));
  for (const tx of sent) expect((await deliver(r.relay.url, tx, TEST_KEY)).status).toBe(200);
  return sent.map((tx) => tx.reference as string);
}

function suite(open: () => Promise<Restorable>) {
  it('a till resuming across a restore is told on paging and on the stream, and its real client reads every delivery', async () => {
    const r = await open();
    const till = tillRelayClient(() => r.relay, r.token);
    const { got, lines, client } = till;
    try {
      const before = await send(r, 3);
      await r.backup();
      const lost = await send(r, 5);
      const first = client();
      first.start();
      await waitFor(() => got.length === 8);
      await first.stop();
      const mark = got[7] as RelayEvent;
      expect(mark.seq).toBe(8);
      await r.restore();
      const fresh = await send(r, 7);

      const query = `after=8&afterReceivedAt=${encodeURIComponent(mark.receivedAt)}`;
      const paged = await get(`${r.relay.url}/v1/transactions?${query}`, r.token);
      expect(paged.status).toBe(409);
      expect(paged.json).toMatchObject({ error: { code: 'CURSOR_FORKED', logId: first.logId, lastSeq: 10 } });

      const stream = await SseClient.connect(`${r.relay.url}/v1/events?${query}`, r.token, { 'last-event-id': '8' });
      try {
        await stream.waitFor((c) => c.events.length === 10);
        const reset = stream.messages.find((m) => m.event === 'reset');
        expect(JSON.parse(reset?.data ?? 'null')).toMatchObject({ reason: 'restored', readFrom: 0, logId: first.logId, lastSeq: 10 });
        expect(stream.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(stream.events.slice(3).map((e) => e.transaction.reference)).toEqual(fresh);
      } finally {
        stream.close();
      }
      // The event at the cursor is still the one the till read: nothing to say.
      const current = stream.events[9] as RelayEvent;
      const same = await get(`${r.relay.url}/v1/transactions?after=10&afterReceivedAt=${encodeURIComponent(current.receivedAt)}`, r.token);
      expect(relayPageSchema.parse(same.json).items).toEqual([]);

      const back = client();
      back.start();
      await waitFor(() => back.lastSeq === 10);
      await back.stop();
      expect(lines.find((l) => l.event === 'relay.cursor_reset')).toMatchObject({ reason: 'log_forked', cursor: 8 });
      // Read again from 0: the restored three once more (the till keeps a result once per reference), then the seven.
      expect(got.slice(8).map((e) => e.transaction.reference)).toEqual([...before, ...fresh]);
      expect(new Set(got.map((e) => e.transaction.reference)).size).toBe(before.length + lost.length + fresh.length);
    } finally {
      till.close();
      await r.close();
    }
  }, 60_000);
}

describe('relay: a restored database is noticed [SQLite]', () => suite(sqliteRestorable));

describePg('relay: a restored database is noticed [PostgreSQL]', () => {
  const cluster = usePgCluster();
  suite(() => pgRestorable(cluster()));
});
