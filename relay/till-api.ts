/**
 * What tills read: token authentication (hashes compared in constant time), the SSE stream and
 * the paged / looked-up event log.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { environmentSchema } from '../shared/domain-schemas.js';
import { CURSOR_AHEAD, RELAY_LOG_ID_HEADER, RELAY_TOKEN } from '../shared/relay-wire.js';
import type { RelayConfig } from './config.js';
import { sendError, sendJson } from '../shared/http-util.js';
import type { LogFn } from './logger.js';
import type { RelayMetrics } from './metrics.js';
import type { SseHub } from './sse-hub.js';
import type { EventReader } from './store.js';

const seqParam = z
  .string()
  .regex(/^[0-9]{1,15}$/, 'must be a non-negative whole number')
  .transform(Number);

const eventsQuerySchema = z.object({
  after: seqParam.optional(),
  environment: environmentSchema.optional(),
});

const transactionsQuerySchema = z.object({
  after: seqParam.optional(),
  limit: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1, 'must be at least 1')
    .optional(),
  environment: environmentSchema.optional(),
  clientReference: z.string().min(1).max(128).optional(),
});

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  return out;
}

function badQuery(res: ServerResponse, error: z.ZodError): void {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') ?? 'query';
  const message = issue?.code === 'invalid_value' ? 'must be test or live' : (issue?.message ?? 'invalid');
  sendError(res, 400, 'VALIDATION_ERROR', `${field}: ${message}`);
}

export type TillApiDeps = {
  getConfig: () => RelayConfig;
  eventLog: EventReader;
  hub: SseHub;
  metrics: RelayMetrics;
  log: LogFn;
};

/** SHA-256 digests of the configured tokens, ready for constant-time comparison. */
export function tokenDigests(config: RelayConfig): Array<{ label: string; tokenHash: string; digest: Buffer }> {
  return config.tills.map((t) => ({
    label: t.label,
    tokenHash: t.tokenHash,
    digest: Buffer.from(t.tokenHash.slice('sha256:'.length), 'hex'),
  }));
}

type Till = { label: string; tokenHash: string };

/** Finds the till a request's bearer token belongs to. Every configured hash is compared, in constant time. */
function tokenAuthenticator(getConfig: () => RelayConfig): (req: IncomingMessage) => Till | null {
  let digests = tokenDigests(getConfig());
  let digestsOf = getConfig();
  return (req) => {
    const config = getConfig();
    if (config !== digestsOf) {
      digests = tokenDigests(config);
      digestsOf = config;
    }
    const auth = req.headers.authorization;
    const m = auth ? /^Bearer (\S+)$/.exec(auth) : null;
    const token = m?.[1];
    if (!token || !RELAY_TOKEN.test(token)) return null;
    const given = createHash('sha256').update(token, 'utf8').digest();
    let found: Till | null = null;
    for (const d of digests) {
      if (timingSafeEqual(given, d.digest) && !found) found = { label: d.label, tokenHash: d.tokenHash };
    }
    return found;
  };
}

/** GET /v1/transactions: a page of the log, or the event for a clientReference. */
function transactions(deps: TillApiDeps, res: ServerResponse, url: URL): void {
  const q = transactionsQuerySchema.safeParse(queryObject(url));
  if (!q.success) return badQuery(res, q.error);
  if (q.data.clientReference !== undefined) {
    const event = deps.eventLog.getByClientReference(q.data.clientReference, q.data.environment);
    if (!event) return sendError(res, 404, 'NOT_FOUND', 'No transaction with that clientReference');
    return sendJson(res, 200, event);
  }
  const after = q.data.after ?? 0;
  const lastSeq = deps.eventLog.lastSeq();
  if (after > lastSeq) {
    // The till's cursor points beyond this log: it was written against a log that is gone (a wiped
    // database, a restored backup). Said plainly, so the till starts again from 0 instead of
    // waiting for the numbers to catch up and missing everything until then.
    return sendJson(res, 409, {
      error: {
        code: CURSOR_AHEAD,
        message: `after (${after}) is beyond this log's last sequence (${lastSeq}); read again from 0`,
        logId: deps.eventLog.logId,
        lastSeq,
      },
    });
  }
  const max = deps.getConfig().maxPageSize;
  const limit = Math.min(q.data.limit ?? 100, max);
  sendJson(res, 200, deps.eventLog.page(after, limit, q.data.environment));
}

export function createTillApi(deps: TillApiDeps) {
  const authenticate = tokenAuthenticator(deps.getConfig);

  function refuse(res: ServerResponse, path: string): void {
    deps.metrics.tillAuthFailures.inc();
    deps.log({ level: 'warn', msg: 'till_unauthenticated', path });
    sendError(res, 401, 'UNAUTHENTICATED', 'A valid relay token is required (Authorization: Bearer rt_…)', {
      'www-authenticate': 'Bearer realm="momo-relay"',
    });
  }

  function events(req: IncomingMessage, res: ServerResponse, url: URL, tokenHash: string): void {
    const q = eventsQuerySchema.safeParse(queryObject(url));
    if (!q.success) return badQuery(res, q.error);
    const lastEventId = req.headers['last-event-id'];
    let after = q.data.after ?? 0;
    if (typeof lastEventId === 'string' && lastEventId !== '') {
      const parsed = seqParam.safeParse(lastEventId.trim());
      if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', 'Last-Event-ID: must be a sequence number');
      after = parsed.data;
    }
    if (!deps.hub.open(req, res, after, q.data.environment, tokenHash)) {
      sendError(res, 503, 'RATE_LIMITED', 'Too many event streams are open', { 'retry-after': '10' });
    }
  }

  function oneTransaction(res: ServerResponse, reference: string, url: URL): void {
    const env = url.searchParams.get('environment');
    const event = deps.eventLog.getByReference(reference);
    if (!event || (env !== null && event.environment !== env)) {
      return sendError(res, 404, 'NOT_FOUND', 'No transaction with that reference');
    }
    sendJson(res, 200, event);
  }

  /** Handles the till routes; returns false when the path is not one of them. */
  return function handleTill(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const path = url.pathname;
    const isEvents = path === '/v1/events';
    const isList = path === '/v1/transactions';
    const one = /^\/v1\/transactions\/([^/]+)$/.exec(path);
    if (!isEvents && !isList && !one) return false;
    if (req.method !== 'GET') {
      sendError(res, 405, 'VALIDATION_ERROR', 'Only GET is allowed here', { allow: 'GET' });
      return true;
    }
    const till = authenticate(req);
    if (!till) {
      refuse(res, path);
      return true;
    }
    res.setHeader(RELAY_LOG_ID_HEADER, deps.eventLog.logId);
    if (isEvents) events(req, res, url, till.tokenHash);
    else if (isList) transactions(deps, res, url);
    else {
      let reference: string;
      try {
        reference = decodeURIComponent((one as RegExpExecArray)[1] as string);
      } catch {
        sendError(res, 400, 'VALIDATION_ERROR', 'reference: badly encoded');
        return true;
      }
      oneTransaction(res, reference, url);
    }
    return true;
  };
}
