/**
 * What one client may hold before it has proved anything (a till token, a device credential, a signed
 * body): a share of the connections and of the pending-body pool, and a body that arrives in time. On a
 * relay reached directly (no proxy buffering requests), slow bodies from one address must not use up what
 * paying tenants need. A client is its socket's address; behind the operator's proxies (trustedProxies) the
 * address they forward (owner/guard.ts), and the proxies' own connections are not counted as one client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../../shared/http-util.js';

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
export function socketAddress(address: string | undefined): string {
  const a = address ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/**
 * The client's address: the socket's, unless the socket is one of `trusted` (the operator's proxies);
 * then the right-most X-Forwarded-For entry that is not itself a trusted proxy (a client writes the left
 * of that header as it likes, the proxies append on the right).
 */
export function clientAddress(req: IncomingMessage, trusted: readonly string[]): string {
  const socket = socketAddress(req.socket.remoteAddress);
  if (!trusted.includes(socket)) return socket;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => socketAddress(h.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.includes(hops[i] as string)) return hops[i] as string;
  return socket;
}

/** Counts per client; a client's count drops out once it is back to zero (a flood of addresses leaves nothing behind). */
export class PerClient {
  private readonly counts = new Map<string, number>();

  get(client: string): number {
    return this.counts.get(client) ?? 0;
  }

  /** Adds `by` unless that would pass `max`; false (and nothing added) when it would. */
  take(client: string, by: number, max: number): boolean {
    const now = this.get(client);
    if (now + by > max) return false;
    this.counts.set(client, now + by);
    return true;
  }

  give(client: string, by: number): void {
    const left = this.get(client) - by;
    if (left > 0) this.counts.set(client, left);
    else this.counts.delete(client);
  }
}

/**
 * Calls `expired` unless the request's body has ended within `ms` (a body before authentication: the
 * service sends a delivery's at once, a phone its link). Cleared when the body ends or the request closes.
 */
export function bodyDeadline(req: IncomingMessage, ms: number, expired: () => void): () => void {
  const timer = setTimeout(() => {
    if (!req.complete) expired();
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  req.once('end', clear);
  req.once('close', clear);
  return clear;
}

/** The answer to a body that did not arrive in time: 408, and the connection closed (its rest is not read). */
export function sendBodyTimeout(res: ServerResponse, ms: number): void {
  if (res.headersSent) return void res.destroy();
  sendError(res, 408, 'VALIDATION_ERROR', `The request body did not arrive within ${ms} ms`, { connection: 'close' });
  res.once('finish', () => res.socket?.destroy());
}
