/**
 * The relay log's identity over real HTTP: made once with the database, the same across restarts on
 * the same data dir, new for a fresh one (or added to a database from before log ids); sent in every
 * page, in the X-Relay-Log-Id header of every till answer, and in the hello that opens every stream.
 * A paging cursor beyond the log's last sequence is answered 409 CURSOR_AHEAD.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { relayCursorAheadSchema, relayHelloSchema, relayLogIdSchema, relayPageSchema } from '../../../../../shared/relay-wire.js';
import { SCHEMA_VERSION } from '../../../../../relay/store/sqlite/index.js';
import { startRelay, type RunningRelay } from '../../../../../relay/http/index.js';
import { deliver, get, LIVE_KEY, makeConfig, runRelayCli, SseClient, TEST_KEY, transaction } from '../../helpers.js';
import { removeDir, tempDir } from '../../../../support/temp-dir.js';

/** Status and headers of a GET (the body is not read: works for event streams too). */
function head(url: string, token: string | undefined): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('relay: log identity', () => {
  const first = tempDir('relay-logid-a');
  const fresh = tempDir('relay-logid-b');
  const old = tempDir('relay-logid-old');
  const made = makeConfig();
  const token = made.token;
  const running: RunningRelay[] = [];
  const open: SseClient[] = [];
  let logIdA = '';

  async function start(dir: string): Promise<RunningRelay> {
    const relay = await startRelay({ dataDir: dir, config: made.config, log: () => {} });
    running.push(relay);
    return relay;
  }

  afterAll(async () => {
    for (const c of open) c.close();
    for (const r of running) await r.close().catch(() => undefined);
    removeDir(first);
    removeDir(fresh);
    removeDir(old);
  });

  it('is in every page, every till answer header and the stream hello', async () => {
    const relay = await start(first);
    const tx = transaction('test');
    expect((await deliver(relay.url, tx, TEST_KEY)).status).toBe(200);
    expect((await deliver(relay.url, transaction('live'), LIVE_KEY)).status).toBe(200);

    const page = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, token)).json);
    logIdA = page.logId;
    expect(relayLogIdSchema.parse(logIdA)).toHaveLength(22); // 16 bytes, base64url
    expect(page.items.map((e) => e.seq)).toEqual([1, 2]);
    expect(relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=2&environment=live`, token)).json)).toEqual({
      logId: logIdA,
      items: [],
      nextAfter: 2,
      hasMore: false,
    });

    for (const path of [
      '/v1/transactions?after=0',
      `/v1/transactions/${tx.reference}`,
      `/v1/transactions?clientReference=${encodeURIComponent(tx.clientReference)}`,
      '/v1/transactions/NO_SUCH_REFERENCE',
      '/v1/events',
      '/v1/events?environment=live&after=1',
    ]) {
      const answer = await head(`${relay.url}${path}`, token);
      expect(answer.headers['x-relay-log-id'], path).toBe(logIdA);
    }
    const refused = await head(`${relay.url}/v1/transactions`, undefined);
    expect(refused.status).toBe(401);
    expect(refused.headers['x-relay-log-id']).toBeUndefined();

    const stream = await SseClient.connect(`${relay.url}/v1/events?after=1`, token);
    open.push(stream);
    await stream.waitFor((c) => c.events.length === 1);
    const hello = stream.messages[0]!;
    expect(hello.event).toBe('hello');
    expect(hello.id).toBeUndefined(); // never moves Last-Event-ID
    expect(relayHelloSchema.parse(JSON.parse(hello.data))).toEqual({ logId: logIdA, lastSeq: 2 });
    expect(stream.events.map((e) => e.seq)).toEqual([2]);
    stream.close();
  });

  it('answers 409 CURSOR_AHEAD to a paging cursor beyond the last sequence', async () => {
    const relay = running[0]!;
    const ahead = await get(`${relay.url}/v1/transactions?after=3&limit=10`, token);
    expect(ahead.status).toBe(409);
    expect(relayCursorAheadSchema.parse(ahead.json).error).toMatchObject({ code: 'CURSOR_AHEAD', logId: logIdA, lastSeq: 2 });
    expect((await get(`${relay.url}/v1/transactions?after=2`, token)).status).toBe(200);
    // The stream does not refuse it (it waits for the numbers to come); its hello says lastSeq.
    const stream = await SseClient.connect(`${relay.url}/v1/events?after=50`, token);
    open.push(stream);
    expect(stream.status).toBe(200);
    await stream.waitFor((c) => c.messages.length >= 1);
    expect(JSON.parse(stream.messages[0]!.data)).toEqual({ logId: logIdA, lastSeq: 2 });
    stream.close();
  });

  it('stays the same across a restart on the same data dir and differs for a fresh one', async () => {
    await running[0]!.close();
    const again = await start(first);
    expect(relayPageSchema.parse((await get(`${again.url}/v1/transactions?after=0`, token)).json).logId).toBe(logIdA);
    const other = await start(fresh);
    const page = relayPageSchema.parse((await get(`${other.url}/v1/transactions?after=0`, token)).json);
    expect(page.logId).not.toBe(logIdA);
    expect(page.items).toEqual([]);
    const stream = await SseClient.connect(`${other.url}/v1/events`, token);
    open.push(stream);
    await stream.waitFor((c) => c.messages.length >= 1);
    expect(JSON.parse(stream.messages[0]!.data)).toEqual({ logId: page.logId, lastSeq: 0 });
    stream.close();
  });

  it('a database from before log ids gets one on upgrade, keeping its events and sequence', async () => {
    const relay = await start(old);
    const tx = transaction('live');
    expect((await deliver(relay.url, tx, LIVE_KEY)).status).toBe(200);
    await relay.close();
    // Back to schema 1 as an older relay left it: no meta table (nor the later pruned_references, migration history,
    // owner devices and events set aside).
    const raw = new Database(join(old, 'relay.sqlite'));
    raw.exec(
      'DROP TABLE meta; DROP TABLE pruned_references; DROP TABLE schema_migrations; DROP TABLE events_set_aside; DROP TABLE owner_devices',
    );
    raw.pragma('user_version = 1');
    raw.close();

    const upgraded = await start(old);
    const page = relayPageSchema.parse((await get(`${upgraded.url}/v1/transactions?after=0`, token)).json);
    expect(page.items.map((e) => [e.seq, e.transaction.reference])).toEqual([[1, tx.reference]]);
    expect(page.logId).not.toBe(logIdA);
    await upgraded.close();
    const check = new Database(join(old, 'relay.sqlite'), { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(check.prepare("SELECT value FROM meta WHERE key = 'log_id'").get()).toEqual({ value: page.logId });
    check.close();
    const reopened = await start(old);
    expect(relayPageSchema.parse((await get(`${reopened.url}/v1/transactions?after=0`, token)).json).logId).toBe(page.logId);
  });
});

describe('relay CLI: log-id', () => {
  const tmp = tempDir('relay-logid-cli');
  afterAll(() => removeDir(tmp));

  it('shows the log id, and gives a new one (after restoring a backup) that the relay then uses', async () => {
    const made = makeConfig();
    const relay = await startRelay({ dataDir: tmp, config: made.config, log: () => {} });
    const before = relayPageSchema.parse((await get(`${relay.url}/v1/transactions?after=0`, made.token)).json).logId;
    await relay.close();

    const shown = await runRelayCli(['log-id', 'show', '--data', tmp]);
    expect(shown.code).toBe(0);
    expect(shown.stdout.trim()).toBe(before);
    const renewed = await runRelayCli(['log-id', 'new', '--data', tmp]);
    expect(renewed.code).toBe(0);
    const after = relayLogIdSchema.parse(renewed.stdout.trim());
    expect(after).not.toBe(before);

    const again = await startRelay({ dataDir: tmp, config: made.config, log: () => {} });
    try {
      expect(relayPageSchema.parse((await get(`${again.url}/v1/transactions?after=0`, made.token)).json).logId).toBe(after);
    } finally {
      await again.close();
    }
    const missing = await runRelayCli(['log-id', 'show', '--data', join(tmp, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No relay database in/);
  });
});
