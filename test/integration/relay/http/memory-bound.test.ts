/**
 * The relay's resident memory under one till token's attacks stays under a stated bound: 16 event
 * streams whose reader stopped reading, and 10 concurrent pages of the largest size, over a log of
 * events near the largest body. Run as its own process (the built relay), its peak resident set read
 * from /proc (VmHWM). The stalled streams are ended, and a till that resumes from the last event it
 * read gets every later one, none skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { createRelayToken } from '../../../../relay/ops/index.js';
import { get, LIVE_KEY, post, signedHeaders, spawnRelay, SseClient, transaction, webhookBody, type RelayProcess } from '../helpers.js';
import { removeDir, tempDir } from '../../../support/temp-dir.js';
import { waitFor } from '../../../support/wait-for.js';

/** The stated bound on the relay's resident memory (docs: relay/docs/limits.md). */
const BOUND_MB = 300;
const EVENTS = 300;
const STREAMS = 16;
const PAGES = 10;

const dir = tempDir('relay-memory');
const { token, tokenHash } = createRelayToken();
let relay: RelayProcess;
const linux = existsSync('/proc/self/status');

/** Peak resident set of the relay's process so far, in MB. */
function peakMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1]) / 1024;
}

/** A stream that stops reading as soon as its answer starts: its socket is left unread. */
function pausedStream(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v1/events?after=0`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', reject);
    req.end();
  });
}

async function metric(name: string): Promise<number> {
  const text = (await get(`${relay.adminUrl}/metrics`)).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? 0);
}

beforeAll(async () => {
  if (!linux) return;
  const configFile = join(dir, 'relay.json');
  writeFileSync(configFile, JSON.stringify({ keys: [LIVE_KEY], tills: [{ label: 'front-counter', tokenHash }] }));
  // Set by environment, as an operator of a container would.
  relay = await spawnRelay(['--port', '0', '--admin-port', '0', '--data', join(dir, 'data'), '--config', configFile], {
    RELAY_HEARTBEAT_SECONDS: '0.2',
    RELAY_STREAM_STALL_SECONDS: '2',
    // All ten pages at once, past the read shares: what is measured is the pages' own bound.
    RELAY_MAX_READS_IN_FLIGHT_PER_TOKEN: String(PAGES),
    RELAY_MAX_READS_IN_FLIGHT_PER_MERCHANT: String(PAGES),
  });
  // Each event near the largest body (64 KiB): the page and stream buffers are what grows with them.
  const pad = 'x'.repeat(60_000);
  for (let i = 0; i < EVENTS; i += 100) {
    const batch = Array.from({ length: Math.min(100, EVENTS - i) }, () => {
      const body = webhookBody(transaction('live', { metadata: { pad } }));
      return post(`${relay.url}/v1/webhooks`, body, signedHeaders(body, LIVE_KEY));
    });
    for (const r of await Promise.all(batch)) expect(r.status).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  if (relay) {
    relay.proc.kill('SIGTERM');
    await relay.exited;
  }
  removeDir(dir);
});

describe.skipIf(!linux)('relay memory under one till token', () => {
  it(`stays under ${BOUND_MB} MB with ${STREAMS} stalled streams and ${PAGES} concurrent largest pages; stalled streams end and resume losing nothing`, async () => {
    const pid = relay.proc.pid as number;
    const before = peakMb(pid);
    const paused = await Promise.all(Array.from({ length: STREAMS }, () => pausedStream(relay.url)));
    const pages = await Promise.all(
      Array.from({ length: PAGES }, () => get(`${relay.url}/v1/transactions?after=0&limit=500&environment=live`, token)),
    );
    expect(peakMb(pid), `peak resident memory during the attack (${before.toFixed(0)} MB before it)`).toBeLessThan(BOUND_MB);
    for (const page of pages) {
      expect(page.status).toBe(200);
      const body = page.json as { items: Array<{ seq: number }>; hasMore: boolean; nextAfter: number };
      // Cut by bytes (1 MiB by default), not by count: the till reads on from nextAfter.
      expect(body.hasMore).toBe(true);
      expect(body.items.length).toBeLessThan(EVENTS);
      expect(body.nextAfter).toBe(body.items.at(-1)?.seq);
      expect(Buffer.byteLength(page.body)).toBeLessThan(1024 * 1024 + 64 * 1024);
    }
    // Every stalled stream is ended (its slot and buffer freed), and no more are open.
    await waitFor(async () => (await metric('relay_sse_stalled_dropped_total')) === STREAMS, 10_000, 'the stalled streams to be dropped');
    expect(await metric('relay_sse_clients')).toBe(0);
    const peak = peakMb(pid);
    expect(peak, `peak resident memory (started the attack at ${before.toFixed(0)} MB)`).toBeLessThan(BOUND_MB);
    console.info(`relay peak RSS: ${before.toFixed(0)} MB before the attack, ${peak.toFixed(0)} MB at its peak (bound ${BOUND_MB} MB)`);

    // One dropped reader reads what it was sent, then resumes from the last event it got: nothing is skipped.
    const first = paused[0] as IncomingMessage;
    let text = '';
    first.setEncoding('utf8').on('data', (c: string) => (text += c));
    first.resume();
    await new Promise((resolve) => first.on('close', resolve));
    for (const other of paused.slice(1)) other.destroy();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    const lastRead = ids.at(-1) ?? 0;
    expect(lastRead).toBeLessThan(EVENTS);
    const resumed = await SseClient.connect(`${relay.url}/v1/events`, token, { 'last-event-id': String(lastRead) });
    await resumed.waitFor((c) => c.messages.some((m) => m.id === String(EVENTS)), 10_000);
    resumed.close();
    expect(resumed.events.map((e) => e.seq)).toEqual(Array.from({ length: EVENTS - lastRead }, (_, i) => lastRead + 1 + i));
  }, 30_000);
});
