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

/** The limits a GuessLimiter reads at each request (the instance's config: they change on reload). */
export type GuessLimits = {
  ownerUnknownCredentialBurstPerClient: number;
  ownerUnknownCredentialsPerSecondPerClient: number;
  ownerUnknownCredentialsPerSecond: number;
};

/** A client held back: the seconds to wait (whole, for Retry-After) and the limit it met. */
export type GuessRefusal = { retryAfter: number; limit: keyof GuessLimits; message: string };

/**
 * Unknown tokens: each client may try a burst, refilled at its rate; all clients together may cost the
 * store a bounded number of look-ups a second of tokens it does not know. A client past its own limit, or any
 * client while the shared one is spent, is answered 429 before any look-up. Full buckets are forgotten (they
 * say nothing a new one would not), so a flood of addresses, held to the shared look-ups, stays bounded.
 */
export class GuessLimiter {
  private readonly clients: RateBuckets;
  private readonly shared: RateBuckets;

  constructor(
    private readonly limits: () => GuessLimits,
    now: () => number,
  ) {
    this.clients = new RateBuckets(now);
    this.shared = new RateBuckets(now);
  }

  /** Why `client` may not try a token now, or null when it may. */
  refusal(client: string): GuessRefusal | null {
    const c = this.limits();
    const burst = c.ownerUnknownCredentialBurstPerClient;
    const perSecond = c.ownerUnknownCredentialsPerSecondPerClient;
    const mine = this.clients.waitFor(client, perSecond, burst);
    if (mine > 0) {
      const message = `Too many unknown links tried from here (ownerUnknownCredentialsPerSecondPerClient ${perSecond} after ownerUnknownCredentialBurstPerClient ${burst}); wait and try again`;
      return { retryAfter: Math.max(1, Math.ceil(mine)), limit: 'ownerUnknownCredentialsPerSecondPerClient', message };
    }
    const all = c.ownerUnknownCredentialsPerSecond;
    const shared = this.shared.waitFor(ALL, all, all);
    if (shared === 0) return null;
    const message = `Too many unknown links tried on this relay (ownerUnknownCredentialsPerSecond ${all}); wait and try again`;
    return { retryAfter: Math.max(1, Math.ceil(shared)), limit: 'ownerUnknownCredentialsPerSecond', message };
  }

  /** `client` tried a token that opened nothing. */
  missed(client: string): void {
    const c = this.limits();
    this.clients.take(client, c.ownerUnknownCredentialsPerSecondPerClient, c.ownerUnknownCredentialBurstPerClient);
    this.shared.take(ALL, c.ownerUnknownCredentialsPerSecond, c.ownerUnknownCredentialsPerSecond);
  }
}

/** The limits a LinkRate reads at each request. */
export type LinkRateLimits = { ownerPageRequestBurstPerLink: number; ownerPageRequestsPerSecondPerLink: number };

/** Each link may make a burst of requests, refilled at its rate: its phones together, past their sign-in. */
export class LinkRate {
  private readonly buckets: RateBuckets;

  constructor(
    private readonly limits: () => LinkRateLimits,
    now: () => number,
  ) {
    this.buckets = new RateBuckets(now);
  }

  /** Takes one request of `linkId`'s and answers 0; or, its bucket empty, takes nothing and answers the seconds to wait. */
  take(linkId: string): number {
    const c = this.limits();
    const [perSecond, burst] = [c.ownerPageRequestsPerSecondPerLink, c.ownerPageRequestBurstPerLink];
    const wait = this.buckets.waitFor(linkId, perSecond, burst);
    if (wait > 0) return wait;
    this.buckets.take(linkId, perSecond, burst);
    return 0;
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
