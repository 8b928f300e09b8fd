/**
 * Who may talk to browser mode's server, request by request. Pure, unit-tested.
 * - Host must be this server's own `127.0.0.1:<port>` or `localhost:<port>`: a page of another site whose
 *   name was rebound to 127.0.0.1 (DNS rebinding) sends its own name and is refused.
 * - Every request but the launch link carries the session cookie, which only the launch link sets.
 * - A POST also carries our own Origin, `Content-Type: application/json` and the `X-Momo-Till` header:
 *   a cross-site page can send none of these without a CORS preflight, which is never answered.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const CALL_HEADER = 'x-momo-till';

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function cookieName(port: number): string {
  // Cookies are shared between the ports of one host: the port in the name keeps two tills apart.
  return `momo_till_${port}`;
}

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

export type Refusal = { status: number; reason: string };

export function checkHost(headers: IncomingHttpHeaders, port: number): Refusal | null {
  return allowedHosts(port).includes(headers.host ?? '') ? null : { status: 421, reason: 'unknown host' };
}

export function checkSession(headers: IncomingHttpHeaders, port: number, session: string): Refusal | null {
  return sameSecret(readCookie(headers.cookie, cookieName(port)), session) ? null : { status: 401, reason: 'no session' };
}

/** A state-changing request: our own origin (that of the Host it was sent to), JSON, and our header. */
export function checkPost(headers: IncomingHttpHeaders): Refusal | null {
  if (headers.origin !== `http://${headers.host}`) return { status: 403, reason: 'cross-origin request' };
  const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { status: 415, reason: 'not JSON' };
  if (headers[CALL_HEADER] !== '1') return { status: 403, reason: `missing ${CALL_HEADER} header` };
  return null;
}
