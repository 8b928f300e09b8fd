/**
 * What stands before a viewer token's look-up: who the client is (its address, or the address a
 * trusted proxy forwarded), how many wrong tokens it may still try (a guesser pays in waiting, the
 * database in at most a bounded number of look-ups a second), and whether another site started the
 * request (a sign-in another site plants would show the owner an attacker's shop).
 */
import type { IncomingMessage } from 'node:http';
import { RateBuckets } from '../fair-share.js';

export { clientAddress } from '../client-limits.js';

/** The key of the bucket every client shares. */
const ALL = '*';

/**
 * Wrong tokens: each client may try `burst`, refilled at `perSecond`; all clients together may cost the
 * store `globalPerSecond` look-ups of tokens it does not know. A client past its own limit, or any client
 * while the shared one is spent, is answered 429 before any look-up. Full buckets are forgotten (they say
 * nothing a new one would not), so a flood of addresses, held to the shared look-ups, stays bounded.
 */
export class GuessLimiter {
  private readonly clients: RateBuckets;
  private readonly shared: RateBuckets;

  constructor(private readonly options: { burst: number; perSecond: number; globalPerSecond: number; now: () => number }) {
    this.clients = new RateBuckets(options.now);
    this.shared = new RateBuckets(options.now);
  }

  /** Seconds to wait (whole, for Retry-After) before `client` may try a token again; 0 when it may now. */
  waitFor(client: string): number {
    const { burst, perSecond, globalPerSecond } = this.options;
    const mine = this.clients.waitFor(client, perSecond, burst);
    if (mine > 0) return Math.ceil(mine);
    return this.shared.waitFor(ALL, globalPerSecond, globalPerSecond) > 0 ? 1 : 0;
  }

  /** `client` tried a token that opened nothing. */
  missed(client: string): void {
    const { burst, perSecond, globalPerSecond } = this.options;
    this.clients.take(client, perSecond, burst);
    this.shared.take(ALL, globalPerSecond, globalPerSecond);
  }
}

/** Each link may make `burst` requests, refilled at `perSecond`: its phones together, past their sign-in. */
export class LinkRate {
  private readonly buckets: RateBuckets;

  constructor(private readonly options: { burst: number; perSecond: number; now: () => number }) {
    this.buckets = new RateBuckets(options.now);
  }

  /** Takes one request of `linkId`'s; false (nothing taken) when its bucket is empty. */
  allow(linkId: string): boolean {
    const { burst, perSecond } = this.options;
    if (this.buckets.waitFor(linkId, perSecond, burst) > 0) return false;
    this.buckets.take(linkId, perSecond, burst);
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
