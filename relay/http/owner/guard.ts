/**
 * What stands before a viewer token's look-up: who the client is (its address, or the address a
 * trusted proxy forwarded), how many wrong tokens it may still try (a guesser pays in waiting, the
 * database in at most a bounded number of look-ups a second), and whether another site started the
 * request (a sign-in another site plants would show the owner an attacker's shop).
 */
import type { IncomingMessage } from 'node:http';

export { clientAddress } from '../client-limits.js';

type Bucket = { tokens: number; at: number };

/**
 * Wrong tokens: each client may try `burst`, refilled at `perSecond`; all clients together may cost the
 * store `globalPerSecond` look-ups of tokens it does not know. A client past its own limit, or any client
 * while the shared one is spent, is answered 429 before any look-up.
 */
export class GuessLimiter {
  private readonly clients = new Map<string, Bucket>();
  private readonly shared: Bucket;

  constructor(private readonly options: { burst: number; perSecond: number; globalPerSecond: number; now: () => number }) {
    this.shared = { tokens: options.globalPerSecond, at: options.now() };
  }

  private refill(b: Bucket, max: number, perSecond: number): void {
    const now = this.options.now();
    b.tokens = Math.min(max, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
  }

  /** Seconds to wait before `client` may try a token again; 0 when it may now. */
  waitFor(client: string): number {
    const { burst, perSecond, globalPerSecond } = this.options;
    this.refill(this.shared, globalPerSecond, globalPerSecond);
    const mine = this.clients.get(client);
    if (mine) this.refill(mine, burst, perSecond);
    if (mine && mine.tokens < 1) return Math.ceil((1 - mine.tokens) / perSecond);
    if (this.shared.tokens < 1) return 1;
    return 0;
  }

  /** `client` tried a token that opened nothing. */
  missed(client: string): void {
    const { burst, perSecond } = this.options;
    let mine = this.clients.get(client);
    if (!mine) {
      // Forget the quietest clients first: a flood of addresses cannot grow this without bound.
      if (this.clients.size >= 50_000) this.clients.clear();
      this.clients.set(client, (mine = { tokens: burst, at: this.options.now() }));
    }
    this.refill(mine, burst, perSecond);
    mine.tokens -= 1;
    this.shared.tokens -= 1;
  }
}

/** Each link may make `burst` requests, refilled at `perSecond`: its phones together, past their sign-in. */
export class LinkRate {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: { burst: number; perSecond: number; now: () => number }) {}

  /** Takes one request of `linkId`'s; false (nothing taken) when its bucket is empty. */
  allow(linkId: string): boolean {
    const now = this.options.now();
    const { burst, perSecond } = this.options;
    const b = this.buckets.get(linkId) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    if (this.buckets.size > 10_000) this.buckets.clear();
    this.buckets.set(linkId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/**
 * Why a sign-in request must be refused as started by another site, or null. Browsers send
 * Sec-Fetch-Site on every request (a form posted from elsewhere says `cross-site`), and it decides when
 * present. Older browsers send only Origin on a POST: it must name this host (as the client asked for it,
 * or as a proxy forwarded it). A client that sends neither is no browser another site could drive.
 */
export function crossSiteReason(req: IncomingMessage): string | null {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? null : `Sec-Fetch-Site: ${String(site)}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    host = null;
  }
  const forwarded = req.headers['x-forwarded-host'];
  const ours = [req.headers.host, ...(typeof forwarded === 'string' ? forwarded.split(',').map((h) => h.trim()) : [])];
  return host && ours.includes(host) ? null : 'Origin is another site';
}
