/**
 * The noisy merchant of the noisy-neighbour bench, one behaviour per phase, each bounded in count and rate
 * so that the bench's own process stays light on a 2-core machine: the relay, not the load generator,
 * is what is measured. Each behaviour runs until stopped and then says what it got (statuses by count).
 */
import { performance } from 'node:perf_hooks';
import { request, type Agent } from 'undici';
import type { Proxy } from '../test/integration/relay/http/proxies.js';
import type { Merchant } from './neighbours-calm.js';
import { heldGet, RawHttps, Tally, type HeldSocket } from './neighbours-tls.js';
import { signedDelivery } from './relay-bench-load.js';

export type NoiseSummary = Record<string, number | string>;
export type Noise = { stop(): Promise<NoiseSummary> };

export const NOISE = {
  /** Deliveries in flight at once, and most a second. */
  floodConcurrency: Number(process.env.NEIGHBOURS_FLOOD_CONCURRENCY ?? 16),
  floodRate: Number(process.env.NEIGHBOURS_FLOOD_RATE ?? 1_000),
  /**
   * Where the flood is sent. NEIGHBOURS_FLOOD_PATH=/admin/flood: to a path the proxy refuses itself (403), so that
   * the flood costs this machine its client and the proxy's TLS but never reaches the relay: the floor the
   * machine sets under the deliveries phase's figure, whatever the relay does.
   */
  floodPath: process.env.NEIGHBOURS_FLOOD_PATH ?? '/v1/webhooks',
  /** Page requests in flight at once (the finding's 20), of the largest page, and most a second. */
  readConcurrency: Number(process.env.NEIGHBOURS_READ_CONCURRENCY ?? 20),
  readRate: Number(process.env.NEIGHBOURS_READ_RATE ?? 400),
  /** Most streams held (stopped reading), and most owner pages held open. */
  maxStreams: Number(process.env.NEIGHBOURS_MAX_STREAMS ?? 100),
  maxPages: Number(process.env.NEIGHBOURS_MAX_PAGES ?? 600),
  pagesPerLink: 30,
  /** Refusals in a row that end the opening: the merchant has reached its share. */
  refusalsToStop: 4,
  /** Longest time spent opening streams or pages. */
  openingSeconds: 20,
};

/** `concurrency` workers calling `once` back to back, together at most `rate` a second, until stopped. */
function paced(concurrency: number, rate: number, once: () => Promise<number | 'error'>): Noise {
  const tally = new Tally();
  let stopped = false;
  let slot = 0;
  const t0 = performance.now();
  const workers = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      const wait = t0 + (slot++ * 1000) / rate - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (stopped) break;
      tally.add(await once().catch(() => 'error' as const));
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
      const seconds = (performance.now() - t0) / 1000;
      return { requests: tally.total, perSecond: Math.round(tally.total / seconds), statuses: tally.toString() };
    },
  };
}

/**
 * (a) Signed deliveries of its own, as fast as answered up to the rate cap, each one new. They are signed and
 * written out before the flood starts, and sent on bare keep-alive connections (RawHttps).
 */
export function floodDeliveries(proxy: Pick<Proxy, 'host' | 'port'>, ca: Buffer, merchant: Merchant): Noise {
  const seconds = Number(process.env.NEIGHBOURS_SECONDS ?? 8) + 4;
  const prepared = Array.from({ length: Math.ceil(NOISE.floodRate * seconds) }, () => {
    const d = signedDelivery(`flood_${merchant.id}`, merchant.key);
    return RawHttps.request(proxy, NOISE.floodPath, d.headers, d.body);
  });
  return sendInTurn(proxy, ca, prepared, NOISE.floodConcurrency, NOISE.floodRate);
}

/**
 * (b) Its tills' pages of the log from the start, the largest the relay gives, many at once: written out before
 * the flood and sent on bare keep-alive connections (RawHttps), each page's body counted off and dropped.
 */
export function floodReads(proxy: Pick<Proxy, 'host' | 'port'>, ca: Buffer, merchant: Merchant): Noise {
  const requests = merchant.tokens.map((token) =>
    RawHttps.get(proxy, '/v1/transactions?after=0&limit=500', { authorization: `Bearer ${token}` }),
  );
  return sendInTurn(proxy, ca, requests, NOISE.readConcurrency, NOISE.readRate);
}

/**
 * Sends the requests written out beforehand, in turn and over again, on `concurrency` bare keep-alive connections
 * (RawHttps) at up to `rate` a second, until stopped.
 */
function sendInTurn(proxy: Pick<Proxy, 'host' | 'port'>, ca: Buffer, requests: Buffer[], concurrency: number, rate: number): Noise {
  const connections = Array.from({ length: concurrency }, () => new RawHttps(proxy, ca));
  const free = [...connections];
  let next = 0;
  const noise = paced(concurrency, rate, async () => {
    const connection = free.pop()!;
    const status = await connection.send(requests[next++ % requests.length]!);
    free.push(connection);
    return status;
  });
  return {
    async stop() {
      const summary = await noise.stop();
      for (const c of connections) c.close();
      return summary;
    },
  };
}

/** Opens held connections with `open` until refused `refusalsToStop` times in a row, `max` are held, or time is up. */
async function holdUntilRefused(max: number, open: (attempt: number) => Promise<HeldSocket | number>) {
  const held: HeldSocket[] = [];
  const tally = new Tally();
  const end = performance.now() + NOISE.openingSeconds * 1000;
  let refusedInARow = 0;
  for (let attempt = 0; held.length < max && refusedInARow < NOISE.refusalsToStop && performance.now() < end; attempt++) {
    const got = await open(attempt);
    const status = typeof got === 'number' ? got : got.status;
    tally.add(status);
    if (typeof got !== 'number' && got.status === 200) {
      held.push(got);
      refusedInARow = 0;
    } else refusedInARow++;
  }
  return { held, tally };
}

const release = (held: HeldSocket[]) => {
  for (const h of held) h.socket.destroy();
};

/**
 * (c) Event streams from the start of its log, to its limit; none of them read. Each token asks twice in a row
 * before the next one does: the proxy alternates between the instances, so each token fills its share on both.
 */
export async function stalledStreams(proxy: Proxy, ca: Buffer, merchant: Merchant): Promise<Noise> {
  const { held, tally } = await holdUntilRefused(NOISE.maxStreams, (attempt) => {
    const token = merchant.tokens[Math.floor(attempt / 2) % merchant.tokens.length]!;
    return heldGet(proxy, ca, '/v1/events?after=0', { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, false);
  });
  return {
    async stop() {
      release(held);
      return { streamsHeld: held.length, statuses: tally.toString() };
    },
  };
}

/** A phone link made with `token`, handed over as the page does: the phone's cookie, or the status that refused it. */
export async function phoneCookie(base: string, agent: Agent, token: string, label: string): Promise<string | number> {
  const made = await request(`${base}/v1/owner-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label, environment: 'live' }),
    dispatcher: agent,
  });
  if (made.statusCode !== 201) {
    await made.body.dump();
    return made.statusCode;
  }
  const { token: invitation } = (await made.body.json()) as { token: string };
  const session = await request(`${base}/v1/owner/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: invitation }),
    dispatcher: agent,
  });
  await session.body.dump();
  const cookie = String(session.headers['set-cookie'] ?? '').split(';')[0];
  return session.statusCode === 200 && cookie ? cookie : session.statusCode;
}

/**
 * (d) Owner pages held open (read, as a phone does): several pages on each phone link, a new link made after
 * every few pages or when a page is refused, the last phone's cookie kept once no more links are given.
 */
export async function heldPages(base: string, agent: Agent, proxy: Proxy, ca: Buffer, merchant: Merchant): Promise<Noise> {
  const links = new Tally();
  let cookie: string | null = null;
  let newLink = true;
  let noMoreLinks = false;
  const { held, tally } = await holdUntilRefused(NOISE.maxPages, async (attempt) => {
    if (!noMoreLinks && (newLink || attempt % NOISE.pagesPerLink === 0)) {
      const got = await phoneCookie(base, agent, merchant.tokens[0]!, `Noisy phone ${attempt}`).catch(() => 0);
      links.add(typeof got === 'string' ? 200 : got);
      if (typeof got === 'string') cookie = got;
      else noMoreLinks = true;
    }
    if (cookie === null) return 0;
    const page = await heldPage(proxy, ca, cookie);
    newLink = page.status !== 200;
    return page;
  });
  return {
    async stop() {
      release(held);
      return { pagesHeld: held.length, statuses: tally.toString(), links: links.toString() };
    },
  };
}

/** One owner page's stream with a phone's cookie, held open and read. */
export const heldPage = (proxy: Proxy, ca: Buffer, cookie: string) =>
  heldGet(proxy, ca, '/v1/owner/stream?after=0', { cookie, accept: 'text/event-stream' }, true);
