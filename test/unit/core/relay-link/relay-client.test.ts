/**
 * The relay client against a small local stand-in of the relay's till API (the real relay is used in
 * the integration tests): catch-up pages through everything after the stored sequence, the SSE stream
 * follows with Last-Event-ID, the cursor lives in SQLite and is reset when the relay URL changes,
 * when the relay names another log, or when the relay says the cursor is beyond its log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../support/wait-for.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { createLogger } from '../../../../electron/core/logger.js';
import { RelayClient } from '../../../../electron/core/relay-link/relay-client.js';
import type { RelayEvent } from '../../../../shared/relay-wire.js';

const TOKEN = `rt_${'k'.repeat(43)}`;
let dir: string;
let db: Db;
let server: Server;
let url: string;
let log: Array<{ path: string; lastEventId: string | undefined }>;
const events: RelayEvent[] = [];
/** What the stand-in says about its log: id in pages and header, hello on the stream, 409 when strict. */
let logId: string | undefined;
let hello: { logId: string; lastSeq: number } | undefined;
let strict: boolean;
let live: RelayEvent | null;
/** The stand-in ends its stream after the live event, as the relay ends a stream whose reader stalled. */
let endStream: boolean;
const LOG_A = 'LogAAAAAAAAAAAAAAAAAAA';
const LOG_B = 'LogBBBBBBBBBBBBBBBBBBB';

function event(seq: number, environment: 'test' | 'live' = 'test'): RelayEvent {
  return {
    seq,
    environment,
    receivedAt: '2026-11-21T10:00:00Z',
    webhookCreatedAt: '2026-11-21T10:00:00Z',
    keyId: 'pk_test_abcdefgh',
    transaction: {
      reference: `TX_${seq}`,
      clientReference: null,
      status: 'SUCCESS',
      amount: '1.00',
      fee: '0.02',
      net: '0.98',
      currency: 'GHS',
      customer: { msisdn: '233241234567', network: 'SANDBOX' },
      description: '',
      metadata: null,
      completedAt: '2026-11-21T10:00:00Z',
      ...(environment === 'test' ? { sandbox: true } : {}),
    },
  } as RelayEvent;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'momo-relayc-'));
  db = openDatabase(join(dir, 'till.db'));
  log = [];
  events.length = 0;
  logId = undefined;
  hello = undefined;
  strict = false;
  endStream = false;
  live = event(8);
  for (let s = 1; s <= 7; s += 1) events.push(event(s, s === 4 ? 'live' : 'test'));
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    log.push({ path: `${u.pathname}${u.search}`, lastEventId: req.headers['last-event-id'] as string | undefined });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    const after = Number(u.searchParams.get('after') ?? 0);
    const lastSeq = events.at(-1)?.seq ?? 0;
    if (u.pathname === '/v1/transactions') {
      if (strict && after > lastSeq) {
        res
          .writeHead(409, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'CURSOR_AHEAD', message: 'ahead', logId, lastSeq } }));
        return;
      }
      const items = events.filter((e) => e.seq > after).slice(0, 3);
      const last = items.at(-1)?.seq ?? after;
      res
        .writeHead(200, { 'content-type': 'application/json', ...(logId ? { 'x-relay-log-id': logId } : {}) })
        .end(JSON.stringify({ ...(logId ? { logId } : {}), items, nextAfter: last, hasMore: events.some((e) => e.seq > last) }));
      return;
    }
    if (u.pathname === '/v1/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
      if (hello) res.write(`event: hello\ndata: ${JSON.stringify(hello)}\n\n`);
      if (live) res.write(`id: ${live.seq}\nevent: transaction\ndata: ${JSON.stringify(live)}\n\n`);
      if (endStream) {
        // Dropped; meanwhile the log grew by 9.
        endStream = false;
        events.push(event(8), event(9));
        live = null;
        res.end();
      }
      return; // stays open
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(relayUrl: string, got: RelayEvent[], states: string[]) {
  return new RelayClient({
    environment: 'test',
    relayUrl,
    token: TOKEN,
    db,
    log: createLogger({ dataDir: dir, now: Date.now }),
    onEvent: (e) => got.push(e),
    onState: (s) => states.push(s),
    initialBackoffMs: 20,
    maxBackoffMs: 50,
  });
}

/** Starts `c`, waits until `done`, stops it. */
async function runUntil(c: RelayClient, done: () => boolean): Promise<void> {
  c.start();
  await waitFor(done);
  await c.stop();
}
/** A first run that reads the whole log (cursor 8); the request log is then cleared for the run after it. */
async function firstRunToEight(): Promise<RelayClient> {
  const first = client(url, [], []);
  await runUntil(first, () => first.lastSeq === 8);
  log.length = 0;
  return first;
}
const streamOpened = () => log.some((l) => l.path.startsWith('/v1/events'));
const pagePaths = () => log.filter((l) => l.path.startsWith('/v1/transactions')).map((l) => l.path);
/** The receivedAt of the fake relay's events, which a resuming till names (afterReceivedAt) with its cursor. */
const MARK = `afterReceivedAt=${encodeURIComponent('2026-11-21T10:00:00Z')}`;
const page = (after: number) => `/v1/transactions?after=${after}${after > 0 ? `&${MARK}` : ''}&limit=500&environment=test`;

describe('relay client', () => {
  it('catches up page by page, then follows the stream from the last sequence; only its environment', async () => {
    const got: RelayEvent[] = [];
    const states: string[] = [];
    const c = client(url, got, states);
    await runUntil(c, () => got.some((e) => e.seq === 8));
    expect(got.map((e) => e.seq)).toEqual([1, 2, 3, 5, 6, 7, 8]); // 4 is live
    expect(pagePaths()).toEqual([page(0), page(3), page(6)]);
    const stream = log.find((l) => l.path.startsWith('/v1/events'));
    expect(stream).toEqual({ path: `/v1/events?environment=test&after=7&${MARK}`, lastEventId: '7' });
    expect(states).toEqual(['reconnecting', 'connected', 'offline']);
    expect(c.lastSeq).toBe(8);
  });

  it('steps over an event it cannot read in a catch-up page (logged), so later results still arrive', async () => {
    const bad = event(2) as unknown as { transaction: Record<string, unknown> };
    bad.transaction.amount = '2.5'; // not a wire amount
    events[1] = bad as unknown as RelayEvent;
    const got: RelayEvent[] = [];
    const c = client(url, got, []);
    await runUntil(c, () => got.some((e) => e.seq === 8));
    expect(got.map((e) => e.seq)).toEqual([1, 3, 5, 6, 7, 8]);
    expect(c.lastSeq).toBe(8);
    const lines = readFileSync(join(dir, 'logs', 'till.log'), 'utf8');
    expect(lines).toMatch(/"event":"relay.bad_event".*"id":2/);
  });

  it('keeps the cursor across restarts and resets it when the relay URL changes', async () => {
    await firstRunToEight();
    await runUntil(client(url, [], []), streamOpened);
    expect(log[0]?.path).toBe(page(8));
    const moved = client(url.replace('127.0.0.1', 'localhost'), [], []);
    expect(moved.lastSeq).toBe(0);
  });

  it('reads again from 0 when the relay names another log (its database was wiped or replaced)', async () => {
    logId = LOG_A;
    const first = await firstRunToEight();
    expect(first.logId).toBe(LOG_A);

    // A fresh relay: numbers from 1 again, under a new log id.
    events.length = 0;
    events.push({ ...event(1), transaction: { ...event(1).transaction, reference: 'TX_NEW_1' } });
    events.push({ ...event(2), transaction: { ...event(2).transaction, reference: 'TX_NEW_2' } });
    live = null;
    logId = LOG_B;
    const got: RelayEvent[] = [];
    const again = client(url, got, []);
    await runUntil(again, () => got.length === 2 && streamOpened());
    expect(got.map((e) => e.transaction.reference)).toEqual(['TX_NEW_1', 'TX_NEW_2']);
    expect(pagePaths()).toEqual([page(8), page(0)]);
    expect(again.lastSeq).toBe(2);
    expect(again.logId).toBe(LOG_B);
    const lines = readFileSync(join(dir, 'logs', 'till.log'), 'utf8');
    expect(lines).toMatch(/"level":"warn","event":"relay.cursor_reset".*"reason":"log_changed".*"cursor":8/);
  });

  it('a cursor from before log ids is kept and the first log id seen adopted', async () => {
    const first = await firstRunToEight();
    expect(first.logId).toBeNull();
    logId = LOG_A;
    const again = client(url, [], []);
    await runUntil(again, streamOpened);
    expect(log[0]?.path).toBe(page(8));
    expect(again.lastSeq).toBe(8);
    expect(again.logId).toBe(LOG_A);
  });

  it('reads again from 0 when paging answers 409 CURSOR_AHEAD (same log id, e.g. a restored backup)', async () => {
    logId = LOG_A;
    await firstRunToEight();
    events.splice(1); // only seq 1 left
    live = null;
    strict = true;
    const got: RelayEvent[] = [];
    const again = client(url, got, []);
    await runUntil(again, () => got.length === 1 && streamOpened());
    expect(pagePaths()).toEqual([page(8), page(0)]);
    expect(got.map((e) => e.seq)).toEqual([1]);
    expect(again.lastSeq).toBe(1);
    expect(readFileSync(join(dir, 'logs', 'till.log'), 'utf8')).toMatch(
      /"event":"relay.cursor_reset".*"reason":"cursor_ahead".*"cursor":8.*"relayLastSeq":1/,
    );
  });

  it("the stream's hello resets the cursor when the log's last sequence is below it, then catches up at once", async () => {
    logId = LOG_A;
    await firstRunToEight();
    events.splice(1); // the relay went back to seq 1 (paging here does not say so: the hello must)
    live = null;
    hello = { logId: LOG_A, lastSeq: 1 };
    const got: RelayEvent[] = [];
    const again = client(url, got, []);
    await runUntil(again, () => got.length === 1 && log.filter((l) => l.path.startsWith('/v1/events')).length === 2);
    expect(log.map((l) => `${l.path.split('?')[0]}@${new URL(l.path, 'http://x').searchParams.get('after')}`)).toEqual([
      '/v1/transactions@8',
      '/v1/events@8',
      '/v1/transactions@0',
      '/v1/events@1',
    ]);
    expect(got.map((e) => e.seq)).toEqual([1]);
    expect(again.lastSeq).toBe(1);
  });

  it('a stream the relay ends (its reader stalled) is resumed from the last event read: nothing read twice or skipped', async () => {
    endStream = true;
    const got: RelayEvent[] = [];
    const c = client(url, got, []);
    await runUntil(c, () => got.some((e) => e.seq === 9) && log.filter((l) => l.path.startsWith('/v1/events')).length === 2);
    expect(got.map((e) => e.seq)).toEqual([1, 2, 3, 5, 6, 7, 8, 9]);
    expect(pagePaths()).toEqual([page(0), page(3), page(6), page(8)]);
    expect(log.filter((l) => l.path.startsWith('/v1/events')).map((l) => l.lastEventId)).toEqual(['7', '9']);
    expect(c.lastSeq).toBe(9);
  });

  it('a refused token is reported offline straight away', async () => {
    const states: string[] = [];
    const c = new RelayClient({
      ...{
        environment: 'test' as const,
        relayUrl: url,
        token: `rt_${'x'.repeat(43)}`,
        db,
        log: createLogger({ dataDir: dir, now: Date.now }),
      },
      onEvent: () => {},
      onState: (s) => states.push(s),
      initialBackoffMs: 20,
      maxBackoffMs: 50,
    });
    await runUntil(c, () => states.includes('offline'));
    expect(states[0]).toBe('reconnecting');
    expect(states).not.toContain('connected');
  });
});
