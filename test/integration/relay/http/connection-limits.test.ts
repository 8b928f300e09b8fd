/**
 * Slow and greedy clients: headers and whole requests must arrive in time, connections
 * are capped without shutting real clients out, keep-alive connections are bounded, and during a
 * flood of slow connections and bad signatures a valid delivery is still answered. Bounded in count
 * and time, on loopback; how fast it is answered is `npm run bench:flood`'s figure, not asserted here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { RelayConfigInput } from '../../../../relay/ops/index.js';
import { startRelay } from '../../../../relay/http/index.js';
import { deliver, get, LIVE_KEY, makeConfig, post, signedHeaders, transaction, webhookBody } from '../helpers.js';
import { removeDir, tempDir as makeTempDir } from '../../../support/temp-dir.js';
import { closedWithin, openSocket, rawExchange } from '../../../support/raw-socket.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A fresh folder and its removal. */
function tempDir(): { dir: string; cleanup(): void } {
  const dir = makeTempDir('relay-hostile');
  return { dir, cleanup: () => removeDir(dir) };
}

async function relayWith(overrides: Partial<RelayConfigInput>) {
  const tmp = tempDir();
  const { config } = makeConfig(overrides);
  const relay = await startRelay({ dataDir: join(tmp.dir, 'data'), config, log: () => {} });
  cleanups.push(() => tmp.cleanup());
  cleanups.push(() => relay.close());
  return relay;
}

async function sockets(url: string, n: number, first = ''): Promise<Socket[]> {
  const out: Socket[] = [];
  for (let i = 0; i < n; i++) {
    // Refused at once by a per-client limit: not held.
    const s = await openSocket(url).catch(() => null);
    if (!s) continue;
    s.on('error', () => undefined);
    // Read (and drop) what the server sends, so its closing the connection is seen at once.
    s.resume();
    if (first) s.write(first);
    out.push(s);
  }
  cleanups.push(() => out.forEach((s) => s.destroy()));
  return out;
}

describe('relay connection limits', () => {
  it('closes a connection whose headers, or whose body, do not arrive in time', async () => {
    const relay = await relayWith({ headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
    const [slowHeaders] = await sockets(relay.url, 1, 'POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nX-Half: ');
    const body = webhookBody(transaction('live'));
    const head = Object.entries({
      ...signedHeaders(body, LIVE_KEY),
      'content-type': 'application/json',
      'content-length': String(body.length),
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    const [slowBody] = await sockets(relay.url, 1, `POST /v1/webhooks HTTP/1.1\r\nHost: x\r\n${head}\r\n${body.slice(0, 10)}`);
    expect(await closedWithin(slowHeaders!, 10_000)).not.toBeNull();
    expect(await closedWithin(slowBody!, 10_000)).not.toBeNull();
  });

  it('at the connection cap, drops the oldest idle connection for a new one, so a delivery is answered', async () => {
    const relay = await relayWith({ maxConnections: 16 });
    const idle = await sockets(relay.url, 16);
    const res = await deliver(relay.url, transaction('live'), LIVE_KEY);
    expect(res.status).toBe(200);
    expect(await closedWithin(idle[0]!, 5_000)).not.toBeNull();
    expect(relay.metrics.connectionsShed.get({ which: 'oldest_idle' })).toBeGreaterThanOrEqual(1);
  });

  it('closes a keep-alive connection after maxRequestsPerSocket requests', async () => {
    const relay = await relayWith({ maxRequestsPerSocket: 2, keepAliveTimeoutMs: 500 });
    const one = 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await rawExchange(relay.url, one + one + one, 5_000);
    expect(answer.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(answer).toMatch(/connection: close/i);
  });

  it('answers a valid delivery during a flood of slow connections and bad signatures', async () => {
    const relay = await relayWith({ maxConnections: 128, headersTimeoutMs: 2_000, requestTimeoutMs: 4_000 });
    const slow = sockets(relay.url, 300, 'POST /v1/webhooks HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const body = webhookBody(transaction('live'));
    const bad = { ...signedHeaders(body, LIVE_KEY), 'x-service-signature': `v1=${'f'.repeat(64)}` };
    const junk = Promise.all(Array.from({ length: 200 }, () => post(`${relay.url}/v1/webhooks`, body, bad)));
    await new Promise((r) => setTimeout(r, 50));
    // From another client: the flood's own address is held to its share.
    expect(await deliverFrom(relay.url, '127.0.0.2')).toBe(200);
    await Promise.all([slow, junk]);
    expect(relay.metrics.accepted.get({ environment: 'live' })).toBe(1);
  });
});

/** A signed delivery posted from `localAddress` (another loopback address: another client). */
function deliverFrom(url: string, localAddress: string): Promise<number> {
  const body = webhookBody(transaction('live'));
  const headers = { ...signedHeaders(body, LIVE_KEY), 'content-type': 'application/json', 'content-length': String(body.length) };
  return new Promise((resolve) => {
    const req = request(`${url}/v1/webhooks`, { method: 'POST', headers, localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(-1));
    req.end(body);
  });
}

/** The start of a request whose body never finishes (`sent` of `length` bytes). */
function slowRequest(path: string, headers: Record<string, string>, length: number, sent: number): string {
  const head = Object.entries({ ...headers, 'content-type': 'application/json', 'content-length': String(length) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `POST ${path} HTTP/1.1\r\nHost: x\r\n${head}\r\n${'x'.repeat(sent)}`;
}

describe('relay limits on clients without credentials', () => {
  it("slow bodies from one address, sign-ins and deliveries under a public key id, do not stop another client's deliveries", async () => {
    const relay = await relayWith({
      maxConnections: 48,
      maxConnectionsPerClient: 16,
      maxBodyBytes: 4096,
      maxPendingBodyBytes: 64 * 1024,
      maxPendingBodyBytesPerClient: 16 * 1024,
      unauthenticatedBodyTimeoutMs: 1_500,
    });
    const body = webhookBody(transaction('live'));
    // Headers as the service's (its key id is public): nothing is proved until the whole body is in.
    const webhook = slowRequest('/v1/webhooks', signedHeaders(body, LIVE_KEY), 4000, 3990);
    const session = slowRequest('/v1/owner/session', {}, 500, 10);
    // 64 connections from 127.0.0.1: before the per-client share, they held every connection and the whole pending pool.
    const held = [...(await sockets(relay.url, 24, webhook)), ...(await sockets(relay.url, 40, session))];
    expect(body.length).toBeLessThan(4096);
    const statuses = await Promise.all(Array.from({ length: 5 }, () => deliverFrom(relay.url, '127.0.0.2')));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(relay.metrics.clientLimited.get({ limit: 'maxConnectionsPerClient' })).toBeGreaterThan(0);
    // The slow bodies that got in are answered 408 and closed once their shorter deadline passes.
    const closed = await Promise.all(held.map((s) => closedWithin(s, 10_000)));
    expect(closed.every((ms) => ms !== null)).toBe(true);
    expect(relay.metrics.clientLimited.get({ limit: 'unauthenticatedBodyTimeoutMs' })).toBeGreaterThanOrEqual(1);
  });

  it('500 abandoned sign-ins are logged as one line and one count, not 500 lines', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const tmp = tempDir();
    const { config } = makeConfig({ warningSummarySeconds: 600 });
    const relay = await startRelay({ dataDir: join(tmp.dir, 'data'), config, log: (l) => void lines.push(l) });
    cleanups.push(() => tmp.cleanup());
    // 100-continue: the server's "go on" says the sign-in is reading its body when the client leaves.
    const session = slowRequest('/v1/owner/session', { expect: '100-continue' }, 500, 0);
    const abandon = async () => {
      const s = await openSocket(relay.url);
      s.on('error', () => undefined);
      s.setEncoding('utf8').write(session);
      await new Promise((r) => s.on('data', (c: string) => c.includes('100 Continue') && r(null)));
      s.write('{"tok');
      await new Promise((r) => s.once('close', r).destroy());
    };
    for (let i = 0; i < 500; i += 50) await Promise.all(Array.from({ length: 50 }, abandon));
    // A request after them all, on a new connection: the server has seen every abandoned one by its answer.
    expect((await get(`${relay.url}/healthz`)).status).toBe(200);
    await relay.close();
    const owner = lines.filter((l) => String(l.msg).startsWith('owner_'));
    expect(owner.length).toBeLessThanOrEqual(2);
    expect(owner.reduce((n, l) => n + Number(l.count), 0)).toBe(500);
    expect(owner[0]).toMatchObject({ level: 'warn', msg: 'owner_request_abandoned', reason: '/v1/owner/session' });
  });
});
