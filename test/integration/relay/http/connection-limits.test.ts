/**
 * Slow and greedy clients: headers and whole requests must arrive in time, connections
 * are capped without shutting real clients out, keep-alive connections are bounded, and during a
 * flood of slow connections and bad signatures a valid delivery is still answered. Bounded in count
 * and time, on loopback; how fast it is answered is `npm run bench:flood`'s figure, not asserted here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { RelayConfigInput } from '../../../../relay/ops/index.js';
import { startRelay } from '../../../../relay/http/index.js';
import { deliver, LIVE_KEY, makeConfig, post, signedHeaders, transaction, webhookBody } from '../helpers.js';
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
    const s = await openSocket(url);
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
    const valid = await deliver(relay.url, transaction('live'), LIVE_KEY);
    expect(valid.status).toBe(200);
    expect(valid.json).toMatchObject({ received: true, duplicate: false });
    await Promise.all([slow, junk]);
    expect(relay.metrics.accepted.get({ environment: 'live' })).toBe(1);
  });
});
