/**
 * The relay benchmark's load: pre-signed deliveries, closed-loop throughput rounds and open-loop
 * webhook-to-SSE latency (see relay-bench.ts).
 */
import { performance } from 'node:perf_hooks';
import { Agent, Pool, request } from 'undici';
import { signWebhook } from '../shared/webhook-signature.js';
import { sandboxSuccessTransaction } from '../test/support/wire-fixtures.js';

export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 128);
export const RATE = Number(process.env.BENCH_RATE ?? 300);
export const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 5);

export type BenchKey = { publicId: string; secret: string };
export type SignedDelivery = { reference: string; body: string; headers: Record<string, string> };

/** The median (the upper one of an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

let n = 0;
/** A LIVE SUCCESS webhook signed with `key` (or, with `badSignature`, with a signature that cannot match). */
export function signedDelivery(prefix: string, key: BenchKey, { badSignature = false } = {}): SignedDelivery {
  n++;
  const reference = `TX_BENCH_${prefix}_${n}`;
  const now = new Date().toISOString();
  const { sandbox: _test, ...data } = sandboxSuccessTransaction({
    reference,
    clientReference: `bench:${n}`,
    customer: { msisdn: '233241234567', network: 'MTN' },
    description: 'Bench sale',
    metadata: { till: 'bench' },
    completedAt: now,
  });
  const body = JSON.stringify({ createdAt: now, data });
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    reference,
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks',
      'x-service-signature': badSignature ? `v1=${'0'.repeat(64)}` : signWebhook({ secret: key.secret, rawBody: body, timestamp }),
      'x-service-timestamp': String(timestamp),
      'x-service-key-id': key.publicId,
    },
  };
}

/**
 * Closed-loop load: CONCURRENCY workers post back to back for `seconds`, spread evenly over `urls`
 * (several instances behind a balancer); returns 2xx answers per second.
 */
export async function throughput(urls: string[], deliveries: SignedDelivery[], seconds: number, cycle = false): Promise<number> {
  const pools = urls.map((url) => new Pool(url, { connections: Math.ceil(CONCURRENCY / urls.length), pipelining: 1 }));
  let next = 0;
  let ok = 0;
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async (w: number) => {
    const pool = pools[w % pools.length]!;
    while (performance.now() < end && (cycle || next < deliveries.length)) {
      const d = deliveries[next++ % deliveries.length]!;
      const res = await pool.request({ path: '/v1/webhooks', method: 'POST', headers: d.headers, body: d.body });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) ok++;
      else failed++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const elapsed = (performance.now() - t0) / 1000;
  await Promise.all(pools.map((p) => p.close()));
  if (failed > 0) console.error(`  ${failed} deliveries were not acknowledged`);
  if (!cycle && next >= deliveries.length) console.error('  ran out of prepared deliveries: raise the pool');
  return ok / elapsed;
}

/**
 * Open-loop load at RATE/s to `postUrl` while a till listens on `sseUrl` (another instance when
 * they differ) from `after`; returns webhook-to-SSE latencies (ms), and webhook-to-2xx ones (the commit
 * on the receiving instance alone: what is left of the first is the way to the till's instance).
 */
export async function latency(
  postUrl: string,
  sseUrl: string,
  token: string,
  after: number,
  key: BenchKey,
): Promise<{ latencies: number[]; acks: number[]; lost: number }> {
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  const acks: number[] = [];
  const agent = new Agent({ connections: 128 });
  const sse = await request(`${sseUrl}/v1/events?after=${after}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    dispatcher: new Agent({ bodyTimeout: 0 }),
  });
  let buffer = '';
  const reading = (async () => {
    for await (const chunk of sse.body) {
      const now = performance.now();
      buffer += (chunk as Buffer).toString('utf8');
      let idx: number;
      while ((idx = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        const m = /"reference":"([^"]+)"/.exec(block);
        const start = m ? sent.get(m[1]!) : undefined;
        if (start !== undefined) {
          latencies.push(now - start);
          sent.delete(m![1]!);
        }
      }
    }
  })().catch(() => undefined);

  const total = Math.round(RATE * LATENCY_SECONDS);
  const prepared = Array.from({ length: total }, () => signedDelivery('lat', key));
  const posts: Array<Promise<unknown>> = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const d = prepared[i]!;
    const start = performance.now();
    sent.set(d.reference, start);
    posts.push(
      request(`${postUrl}/v1/webhooks`, { method: 'POST', headers: d.headers, body: d.body, dispatcher: agent }).then((r) => {
        acks.push(performance.now() - start);
        return r.body.dump();
      }),
    );
  }
  await Promise.all(posts);
  const deadline = performance.now() + 2000;
  while (sent.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const lost = sent.size;
  sse.body.destroy();
  await reading;
  await agent.close();
  return { latencies, acks, lost };
}
