/**
 * The well-behaved merchants of the noisy-neighbour bench: each has a till holding its event stream and
 * receives signed deliveries at a steady rate (open loop: a slow relay does not slow the sending). For each
 * delivery: its answer, and the time from starting the POST to the event reaching the merchant's till.
 */
import { performance } from 'node:perf_hooks';
import { request, type Agent } from 'undici';
import { signedDelivery, type BenchKey } from './relay-bench-load.js';

export type Merchant = { id: string; key: BenchKey; tokens: string[] };

export type CalmResult = {
  sent: number;
  /** Not answered 200 (any other status, or no answer). */
  refused: number;
  /** Answered 200 but never reached the merchant's till within the wait after the last one. */
  lost: number;
  /** Webhook-to-SSE, ms, of every delivery that arrived. */
  latencies: number[];
  /** Webhook-to-200, ms (the commit alone: what is left of webhook-to-SSE is the way to the till). */
  acks: number[];
  /** Times a till's stream ended during the phase and was opened again from its cursor. */
  reconnects: number;
  /** Times a till's stream was refused (any answer but 200, or none) and asked for again. */
  streamsRefused: number;
};

/** How long, after the last delivery, an acknowledged one may still arrive before it counts as lost. */
const ARRIVAL_WAIT_MS = 5_000;

type Till = { cursor: number; stop: () => void; done: Promise<void> };
type TillEvents = { arrived: (reference: string, at: number) => void; reconnected: () => void; refused: () => void };

/**
 * One till's stream from `cursor`, kept open until stopped: reopened from its cursor if it ends, and asked
 * again after a pause if refused. Resolves once the stream said hello, or after 10 s without one.
 */
async function openTill(base: string, agent: Agent, token: string, cursor: number, on: TillEvents): Promise<Till> {
  let stopped = false;
  let current: { destroy(): void } | null = null;
  let ready = () => {};
  const opened = new Promise<void>((r) => (ready = r));
  const till: Till = {
    cursor,
    stop: () => {
      stopped = true;
      current?.destroy();
    },
    done: Promise.resolve(),
  };
  const once = async (): Promise<number> => {
    const res = await request(`${base}/v1/events?after=${till.cursor}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      dispatcher: agent,
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return res.statusCode;
    }
    current = res.body;
    let buffer = '';
    for await (const chunk of res.body) {
      const at = performance.now();
      buffer += (chunk as Buffer).toString('utf8');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (/^event: hello$/m.test(block)) ready();
        const id = /^id: (\d+)$/m.exec(block);
        if (id) till.cursor = Number(id[1]);
        const reference = /"reference":"([^"]+)"/.exec(block);
        if (reference && /^event: transaction$/m.test(block)) on.arrived(reference[1]!, at);
      }
    }
    return 200;
  };
  till.done = (async () => {
    for (let first = true; !stopped; first = false) {
      if (!first) on.reconnected();
      const status = await once().catch(() => 0);
      if (status !== 200 && !stopped) {
        on.refused();
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  await Promise.race([opened, till.done, new Promise((r) => setTimeout(r, 10_000))]);
  return till;
}

/**
 * `seconds` of steady deliveries, `ratePerMerchant` a second for each merchant, posted to `postBase` while
 * each merchant's till listens through `streamBase` (from the cursor it reached in the phase before).
 */
export async function calmPhase(options: {
  merchants: Merchant[];
  postBase: string;
  streamBase: string;
  agent: Agent;
  seconds: number;
  ratePerMerchant: number;
  cursors: Map<string, number>;
}): Promise<CalmResult> {
  const { merchants, agent } = options;
  const sent = new Map<string, number>();
  const acked = new Set<string>();
  const latencies: number[] = [];
  const acks: number[] = [];
  let reconnects = 0;
  let streamsRefused = 0;
  const arrived = (reference: string, at: number) => {
    const start = sent.get(reference);
    if (start === undefined) return;
    latencies.push(at - start);
    sent.delete(reference);
    acked.delete(reference);
  };
  const tills = await Promise.all(
    merchants.map((m) =>
      openTill(options.streamBase, agent, m.tokens[0]!, options.cursors.get(m.id) ?? 0, {
        arrived,
        reconnected: () => reconnects++,
        refused: () => streamsRefused++,
      }),
    ),
  );
  const total = Math.round(options.ratePerMerchant * merchants.length * options.seconds);
  const prepared = Array.from({ length: total }, (_, i) => {
    const merchant = merchants[i % merchants.length]!;
    return signedDelivery(`calm_${merchant.id}`, merchant.key);
  });
  let refused = 0;
  const posts: Array<Promise<void>> = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / (options.ratePerMerchant * merchants.length) - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const d = prepared[i]!;
    const start = performance.now();
    sent.set(d.reference, start);
    posts.push(
      request(`${options.postBase}/v1/webhooks`, { method: 'POST', headers: d.headers, body: d.body, dispatcher: agent }).then(
        async (res) => {
          await res.body.dump();
          if (res.statusCode === 200) {
            acks.push(performance.now() - start);
            if (sent.has(d.reference)) acked.add(d.reference);
          } else {
            refused++;
            sent.delete(d.reference);
          }
        },
        () => {
          refused++;
          sent.delete(d.reference);
        },
      ),
    );
  }
  await Promise.all(posts);
  const deadline = performance.now() + ARRIVAL_WAIT_MS;
  while (acked.size > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const t of tills) t.stop();
  await Promise.all(tills.map((t) => t.done));
  merchants.forEach((m, i) => options.cursors.set(m.id, tills[i]!.cursor));
  return { sent: total, refused, lost: acked.size, latencies, acks, reconnects, streamsRefused };
}

/** The p-th percentile of `values` (nearest rank); NaN when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
