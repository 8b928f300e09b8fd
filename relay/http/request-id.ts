/**
 * Each request's id, on every log line about it: the proxy's X-Request-ID when it sends a sane one
 * (nginx's $request_id, Caddy's {http.request.uuid}), so the relay's lines join the proxy's; else one
 * made here (this process's prefix and a counter). Made when first asked for: a delivery answered
 * without a log line (the hot path) never pays for it.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ids = new WeakMap<IncomingMessage, string>();
const PREFIX = randomBytes(4).toString('hex');
const GIVEN = /^[A-Za-z0-9._:-]{1,64}$/;
let counter = 0;

export function requestIdOf(req: IncomingMessage): string {
  let id = ids.get(req);
  if (id === undefined) {
    const given = req.headers['x-request-id'];
    id = typeof given === 'string' && GIVEN.test(given) ? given : `${PREFIX}-${(++counter).toString(36)}`;
    ids.set(req, id);
  }
  return id;
}
