/**
 * The relay against hostile and careless input: each case is an attack from loopback, against the real
 * server with real SQLite files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { chmodSync, closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { startRelay } from '../../../../relay/http/index.js';
import type { RelayConfigInput } from '../../../../relay/ops/index.js';
import { deliver, get, LIVE_KEY, makeConfig, post, signedHeaders, SseClient, TEST_KEY, transaction, webhookBody } from '../helpers.js';
import { openSocket, rawExchange } from '../../../support/raw-socket.js';
import { removeDir, tempDir as makeTempDir } from '../../../support/temp-dir.js';
import { sleep, waitFor } from '../../../support/wait-for.js';
import { tillRelayClient } from '../till-client.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Line = Record<string, unknown>;

/** A fresh folder and its removal. */
function tempDir(): { dir: string; cleanup(): void } {
  const dir = makeTempDir('relay-hostile');
  return { dir, cleanup: () => removeDir(dir) };
}

async function relayWith(overrides: Partial<RelayConfigInput> = {}, dir?: string) {
  const tmp = dir ? null : tempDir();
  const dataDir = dir ?? join(tmp!.dir, 'data');
  const { config, token } = makeConfig(overrides);
  const lines: Line[] = [];
  const relay = await startRelay({ dataDir, config, log: (l) => lines.push(l) });
  cleanups.push(() => tmp?.cleanup());
  cleanups.push(() => relay.close());
  return { relay, token, lines, dataDir, config };
}

/** Posts headers and the first part of a body, and waits for an answer without sending the rest. */
function postPartly(
  url: string,
  headers: Record<string, string>,
  declaredBytes: number,
  sentBytes: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(`${url}/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(declaredBytes), ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => (answered ? undefined : resolve({ status: -1, body: String(err.code) })));
    // No answer while the body is unfinished: status 0, rather than waiting for the test's time-out.
    setTimeout(() => resolve({ status: 0, body: '' }), 5_000).unref();
    req.write('x'.repeat(sentBytes));
    cleanups.push(() => void req.destroy());
  });
}

/** Stores `n` deliveries. */
async function fill(url: string, n: number): Promise<void> {
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: 50 }, () => deliver(url, transaction('live', { description: 'x'.repeat(400) }), LIVE_KEY)));
  }
}

/** Overwrites pages in the middle of a SQLite file with junk (the header and the first pages stay). */
function overwriteMiddlePages(file: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  for (let at = Math.floor(size / 3 / 4096) * 4096; at < (size * 2) / 3; at += 4096 * 3)
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, at);
  closeSync(fd);
}

function nestedText(depth: number): string {
  const open = Array.from({ length: depth }, (_, i) => (i % 2 ? '[' : '{"n":')).join('');
  const close = Array.from({ length: depth }, (_, i) => (i % 2 ? ']' : '}'))
    .reverse()
    .join('');
  return `${open}1${close}`;
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
}

describe('relay against hostile input', () => {
  it('keeps test and live apart: a test delivery never blocks a live one with the same reference (11.1)', async () => {
    const { relay, token } = await relayWith();
    const tx = transaction('test');
    expect((await deliver(relay.url, tx, TEST_KEY)).status).toBe(200);
    const live = transaction('live', { reference: tx.reference });
    for (let retry = 0; retry < 2; retry++) {
      const res = await deliver(relay.url, live, LIVE_KEY);
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ received: true, duplicate: retry === 1 });
    }
    expect(relay.metrics.securityAlerts.get({ kind: 'conflicting_repeat' })).toBe(0);
    const one = await get(`${relay.url}/v1/transactions/${tx.reference}?environment=live`, token);
    expect(one.json).toMatchObject({ environment: 'live', transaction: { reference: tx.reference } });
  });

  it('refuses a missing or unknown key id, a bad signature or timestamp with 401 before reading the body (11.3)', async () => {
    const { relay } = await relayWith();
    const body = webhookBody(transaction('live'));
    const good = signedHeaders(body, LIVE_KEY);
    const cases: Array<[string, Record<string, string>]> = [
      ['unknown_key', { ...good, 'x-service-key-id': 'pk_live_Nobody000001' }],
      ['missing_key_id', { ...good, 'x-service-key-id': '' }],
      ['missing_signature', { ...good, 'x-service-signature': '' }],
      ['malformed_signature', { ...good, 'x-service-signature': 'v1=zz' }],
      ['malformed_timestamp', { ...good, 'x-service-timestamp': 'yesterday' }],
    ];
    for (const [reason, headers] of cases) {
      const before = relay.metrics.rejected.get({ reason });
      const res = await postPartly(relay.url, headers, 60_000, 100);
      expect(res.status, reason).toBe(401);
      expect(relay.metrics.rejected.get({ reason }), reason).toBe(before + 1);
    }
  });

  it('bounds the memory all pending bodies may take: beyond it, 503 and the connection closed (11.3)', async () => {
    const { relay } = await relayWith({ maxBodyBytes: 64 * 1024, maxPendingBodyBytes: 128 * 1024 });
    const headers = signedHeaders('{}', LIVE_KEY);
    const answers: Array<Promise<{ status: number; body: string }>> = [];
    for (let i = 0; i < 3; i++) {
      answers.push(postPartly(relay.url, headers, 60_000, 50_000));
      await sleep(100);
    }
    const third = (await answers[2])!;
    expect(third.status).toBe(503);
    expect(third.body).toMatch(/pending/i);
    expect(relay.metrics.rejected.get({ reason: 'pending_bodies_full' })).toBe(1);
  });

  it("holds one merchant's bodies still arriving to its share of the pool: 429, the pool (503 for all) not reached", async () => {
    const settings = { maxBodyBytes: 64 * 1024, maxPendingBodyBytes: 256 * 1024, maxPendingBodyBytesPerMerchant: 128 * 1024 };
    const { relay } = await relayWith(settings);
    const held = async () => Number(/relay_merchant_pending_body_bytes\{[^}]*\} (\d+)/.exec(await relay.metrics.render())?.[1] ?? 0);
    const headers = signedHeaders('{}', LIVE_KEY);
    void postPartly(relay.url, headers, 60_000, 50_000);
    void postPartly(relay.url, headers, 60_000, 50_000);
    await waitFor(async () => (await held()) === 100_000, 10_000, 'two bodies half arrived');
    const third = await postPartly(relay.url, headers, 60_000, 50_000);
    expect(third.status).toBe(429);
    expect(third.body).toMatch(/maxPendingBodyBytesPerMerchant 131072/);
    expect(relay.metrics.rejected.get({ reason: 'merchant_pending_bodies_full' })).toBe(1);
    expect(relay.metrics.rejected.get({ reason: 'pending_bodies_full' })).toBe(0);
  });

  it('refuses a body nested deeper than the limit with 400 naming it, at any depth (11.7)', async () => {
    const { relay } = await relayWith();
    for (const depth of [40, 4_500]) {
      // Built as text: JSON.stringify itself overflows the stack at this depth.
      const body = webhookBody(transaction('live', { metadata: 'DEEP' })).replace('"DEEP"', nestedText(depth));
      const res = await post(`${relay.url}/v1/webhooks`, body, signedHeaders(body, LIVE_KEY));
      expect(res.status, String(depth)).toBe(400);
      expect(JSON.stringify(res.json)).toContain('32');
    }
    expect(relay.metrics.rejected.get({ reason: 'too_deep' })).toBe(2);
    expect((await deliver(relay.url, transaction('live', { metadata: nested(21) }), LIVE_KEY)).status).toBe(200);
  });

  it('answers 400 to a malformed request target, not 500 (11.10)', async () => {
    const { relay } = await relayWith();
    const answer = await rawExchange(relay.url, 'GET http://[::1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('refuses control characters and bidi overrides in references, under their own reason (11.11)', async () => {
    const { relay } = await relayWith();
    const odd = ['TX\u0000NUL', 'TX\u001bESC', 'TX\u0085NEL', 'TX\u202eEVIL', 'TX\u2066ISOLATE'];
    for (const reference of odd) {
      const res = await deliver(relay.url, transaction('live', { reference }), LIVE_KEY);
      expect(res.status, JSON.stringify(reference)).toBe(400);
      expect(JSON.stringify(res.json)).toMatch(/reference/);
    }
    const res = await deliver(relay.url, transaction('live', { clientReference: 'till-1:\u202e9' }), LIVE_KEY);
    expect(res.status).toBe(400);
    expect(relay.metrics.rejected.get({ reason: 'invalid_characters' })).toBe(odd.length + 1);
    expect((await deliver(relay.url, transaction('live', { reference: 'TX_Ünïcödé_ok' }), LIVE_KEY)).status).toBe(200);
  });

  it('refuses invisible and format characters in references and client references (issue 19 §7)', async () => {
    const { relay } = await relayWith();
    // Each was accepted before: zero-width space and joiner, word joiner, byte-order mark, soft hyphen,
    // line separator, Hangul filler; then the other Hangul fillers and a paragraph separator.
    const invisible = ['\u200b', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u2028', '\u3164', '\u115f', '\u1160', '\uffa0', '\u2029'];
    for (const c of invisible) {
      for (const field of ['reference', 'clientReference'] as const) {
        const tx = transaction('live', { [field]: `TX_${c}look_alike` });
        const res = await deliver(relay.url, tx, LIVE_KEY);
        expect(res.status, `${field} U+${c.codePointAt(0)!.toString(16)}`).toBe(400);
        expect(JSON.stringify(res.json)).toContain(`data.${field}`);
      }
    }
    expect(relay.metrics.rejected.get({ reason: 'invalid_characters' })).toBe(invisible.length * 2);
    // Letters of every script, and visible punctuation, still pass.
    for (const reference of ['TX_Ünïcödé_ok', 'TX_한국어_ok', 'TX_ኢትዮጵያ', 'TX_a b·c']) {
      expect((await deliver(relay.url, transaction('live', { reference }), LIVE_KEY)).status, reference).toBe(200);
    }
  });

  it('caps the event streams one till token may hold, and says so; another till still connects (11.5)', async () => {
    const { relay, token, config } = await relayWith({ maxStreamsPerToken: 2 });
    const other = makeConfig();
    relay.setConfig({ ...config, tills: [...config.tills, { ...other.config.tills[0]!, label: 'back-office' }] });
    const streams = [await SseClient.connect(`${relay.url}/v1/events`, token), await SseClient.connect(`${relay.url}/v1/events`, token)];
    for (const s of streams) cleanups.push(() => s.close());
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const third = await get(`${relay.url}/v1/events`, token);
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(third.body).toMatch(/already holds 2 event streams \(maxStreamsPerToken\)/);
    const another = await SseClient.connect(`${relay.url}/v1/events`, other.token);
    cleanups.push(() => another.close());
    expect(another.status).toBe(200);
  });

  it("holds a till token's reads to its burst and rate (429 with Retry-After, naming the limit); its merchant's other till and deliveries go on", async () => {
    const { relay, token, config } = await relayWith({ readBurstPerToken: 5, readsPerSecondPerToken: 0.01 });
    const other = makeConfig();
    relay.setConfig({ ...config, tills: [...config.tills, { ...other.config.tills[0]!, label: 'back-office' }] });
    const pages = await Promise.all(Array.from({ length: 12 }, () => get(`${relay.url}/v1/transactions?after=0&limit=500`, token)));
    expect(pages.map((p) => p.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    const refused = pages.find((p) => p.status === 429)!;
    expect(refused.json).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(refused.body).toMatch(/readsPerSecondPerToken 0\.01 after readBurstPerToken 5/);
    expect(Number(refused.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await deliver(relay.url, transaction('live'), LIVE_KEY)).status).toBe(200);
    expect((await get(`${relay.url}/v1/transactions?after=0`, other.token)).status).toBe(200);
    expect(relay.metrics.shareRefusals.get({ limit: 'readsPerSecondPerToken' })).toBe(7);
  });

  it("the till's own client waits as long as a read refusal's Retry-After says, staying connected, and loses nothing", async () => {
    const { relay, token } = await relayWith({ readBurstPerToken: 1, readsPerSecondPerToken: 0.5 });
    expect((await deliver(relay.url, transaction('test'), TEST_KEY)).status).toBe(200);
    // The token's one read spent: the till's first page is refused, Retry-After: 2.
    expect((await get(`${relay.url}/v1/transactions?after=0`, token)).status).toBe(200);
    const till = tillRelayClient(() => relay, token);
    const client = till.client();
    cleanups.push(() => till.close());
    cleanups.push(() => client.stop());
    client.start();
    await waitFor(() => till.got.length === 1 && client.currentState === 'connected', 15_000, 'the result read after the wait');
    const states = till.lines.filter((l) => l.event === 'relay.state').map((l) => l.state);
    expect(states, 'never reconnecting nor offline after the relay answered').toEqual(['reconnecting', 'connected']);
    expect(relay.metrics.shareRefusals.get({ limit: 'readsPerSecondPerToken' }), 'asked once, then waited').toBe(1);
    expect(till.lines.find((l) => l.event === 'relay.rate_limited')).toMatchObject({ level: 'info', retryAfterMs: 2000, lost: 'nothing' });
    expect(till.lines.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it("counts a merchant's reads in events: a page holds what is left, then 429 naming the limit; a stream from the start waits for them and still gets every event", async () => {
    const { relay, token, config } = await relayWith({ readEventsPerSecondPerMerchant: 1, readEventBurstPerMerchant: 30 });
    const delivered = await Promise.all(Array.from({ length: 40 }, () => deliver(relay.url, transaction('live'), LIVE_KEY)));
    expect(delivered.every((d) => d.status === 200)).toBe(true);
    const first = await get(`${relay.url}/v1/transactions?after=0&limit=500`, token);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ hasMore: true, nextAfter: 30 });
    expect((first.json as { items: unknown[] }).items).toHaveLength(30);
    const next = await get(`${relay.url}/v1/transactions?after=30&limit=500`, token);
    expect(next.status).toBe(429);
    expect(next.body).toMatch(/readEventsPerSecondPerMerchant 1 after readEventBurstPerMerchant 30/);
    expect(Number(next.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(relay.metrics.readEvents.get()).toBe(30);
    // A faster budget, still below what the stream asks at once: it reads a few events, waits, reads on.
    relay.setConfig({ ...config, readEventsPerSecondPerMerchant: 400, readEventBurstPerMerchant: 8 });
    const stream = await SseClient.connect(`${relay.url}/v1/events?after=0`, token);
    cleanups.push(() => stream.close());
    await waitFor(() => stream.events.length === 40);
    expect(stream.events.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(relay.metrics.streamsPaced.get()).toBeGreaterThan(0);
    expect(relay.metrics.readEvents.get()).toBe(70);
  });

  it('aggregates repeated warnings into one line per reason per interval; the metrics stay exact (11.4)', async () => {
    const { relay, lines } = await relayWith({ warningSummarySeconds: 0.3 });
    const body = webhookBody(transaction('live'));
    const bad = { ...signedHeaders(body, LIVE_KEY), 'x-service-signature': `v1=${'0'.repeat(64)}` };
    await Promise.all(Array.from({ length: 40 }, () => post(`${relay.url}/v1/webhooks`, body, bad)));
    await Promise.all(Array.from({ length: 40 }, () => get(`${relay.url}/v1/transactions`, 'rt_wrong')));
    await sleep(700);
    const rejected = lines.filter((l) => l.msg === 'webhook_rejected' && l.reason === 'signature_mismatch');
    const unauthenticated = lines.filter((l) => l.msg === 'till_unauthenticated');
    expect(rejected.length).toBeLessThanOrEqual(2);
    expect(unauthenticated.length).toBeLessThanOrEqual(2);
    expect(rejected.reduce((n, l) => n + Number(l.count), 0)).toBe(40);
    expect(unauthenticated.reduce((n, l) => n + Number(l.count), 0)).toBe(40);
    expect(relay.metrics.rejected.get({ reason: 'signature_mismatch' })).toBe(40);
    expect(relay.metrics.tillAuthFailures.get()).toBe(40);
  });

  it('logs an upload cut off by the client at debug level, not as an error (11.4)', async () => {
    const { relay, lines } = await relayWith();
    const body = webhookBody(transaction('live'));
    const socket = await openSocket(relay.url);
    const headers = Object.entries({
      ...signedHeaders(body, LIVE_KEY),
      'content-type': 'application/json',
      'content-length': String(body.length),
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body.slice(0, 20)}`);
    await sleep(200);
    socket.destroy();
    await sleep(300);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.some((l) => l.level === 'debug' && l.msg === 'webhook_upload_cut_off')).toBe(true);
  });

  it('refuses to start on a damaged database, naming the file and what to do (11.6)', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const { relay } = await relayWith({}, tmp.dir);
    await fill(relay.url, 600);
    await relay.close();
    const file = join(tmp.dir, 'relay.sqlite');
    overwriteMiddlePages(file);
    const { config } = makeConfig();
    await expect(startRelay({ dataDir: tmp.dir, config, log: () => {} })).rejects.toThrow(/relay\.sqlite is damaged.*restore.*log-id new/s);
    // A damaged header too.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(100, 0x41), 0, 100, 0);
    closeSync(fd);
    await expect(startRelay({ dataDir: tmp.dir, config, log: () => {} })).rejects.toThrow(/relay\.sqlite is damaged.*restore/s);
  });

  it('fails /healthz once the database cannot be read (11.6)', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const first = await relayWith({}, tmp.dir);
    await fill(first.relay.url, 600);
    await first.relay.close();
    const { relay, token } = await relayWith({}, tmp.dir);
    expect((await get(`${relay.url}/healthz`)).status).toBe(200);
    overwriteMiddlePages(join(tmp.dir, 'relay.sqlite'));
    let failed = false;
    for (let after = 0; after < 600 && !failed; after += 100) {
      failed = (await get(`${relay.url}/v1/transactions?after=${after}&limit=100`, token)).status >= 500;
    }
    expect(failed).toBe(true);
    const health = await get(`${relay.url}/healthz`);
    expect(health.status).toBe(503);
    // The public check says only that it is down: no error, path or database detail.
    expect(health.json).toEqual({ ok: false });
  });

  it('creates its data folder 0700 and database 0600, and warns when an existing folder is more open (11.9)', async () => {
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const { relay, dataDir } = await relayWith({}, join(tmp.dir, 'fresh'));
    await relay.close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'relay.sqlite')).mode & 0o777).toBe(0o600);
    chmodSync(tmp.dir, 0o755);
    const { lines } = await relayWith({}, tmp.dir);
    expect(lines.some((l) => l.level === 'warn' && l.msg === 'data_dir_too_open')).toBe(true);
  });
});
