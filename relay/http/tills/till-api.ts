/**
 * What tills read: token authentication, the SSE stream and the paged / looked-up event log, each
 * only within the till's own merchant (another merchant's reference is simply not found).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { environmentSchema } from '../../../shared/domain-schemas.js';
import { CURSOR_AHEAD, CURSOR_FORKED, CURSOR_PRUNED, RELAY_LOG_ID_HEADER, RELAY_TOKEN } from '../../../shared/relay-wire.js';
import { hashRelayToken, type RelayConfig, type LogFn, type RelayMetrics, type WarningSummary } from '../../ops/index.js';
import { sendError, sendJson } from '../../../shared/http-util.js';
import type { EventStreams, StreamRefusal } from './event-streams.js';
import { requestIdOf } from '../request-id.js';
import { cursorStanding } from './cursor-check.js';
import type { ReadShares } from './read-shares.js';
import { sendInstanceUnavailable, sendRateLimited, sendSuspended } from '../refusals.js';
import { type RelayStore, type TillIdentity } from '../../store/index.js';
import { readPage, sendPage } from './pages.js';

/** The tills' routes, each answering GET only, named as relay/docs/http-api.md names them (`<reference>`: one path segment). */
const PATHS = { events: '/v1/events', list: '/v1/transactions', one: '/v1/transactions/<reference>' } as const;
const ONE = new RegExp(`^${PATHS.one.replace('<reference>', '([^/]+)')}$`);

/** Each route as `METHOD /path` (relay/docs/http-api.md lists every one). */
export const TILL_ROUTES: readonly string[] = Object.values(PATHS).map((path) => `GET ${path}`);

const seqParam = z
  .string()
  .regex(/^[0-9]{1,15}$/, 'must be a non-negative whole number')
  .transform(Number);

/** The receivedAt of the event the till read at `after` (shared/relay-wire.ts, CURSOR_FORKED). */
const receivedAtParam = z.string().min(1).max(64);

const eventsQuerySchema = z.object({
  after: seqParam.optional(),
  afterReceivedAt: receivedAtParam.optional(),
  environment: environmentSchema.optional(),
});

const transactionsQuerySchema = z.object({
  after: seqParam.optional(),
  afterReceivedAt: receivedAtParam.optional(),
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
  /** Repeated refusals, one line per reason per interval. */
  warnings: WarningSummary;
  store: RelayStore;
  streams: EventStreams;
  /** Each token's and merchant's share of the log's reads. */
  reads: ReadShares;
  metrics: RelayMetrics;
  log: LogFn;
  /** A multi-merchant relay: counts refusals per merchant too. */
  perMerchantMetrics?: boolean;
};

/** Each refusal names the limit it hit, so whoever reads the answer knows what to change. */
const REFUSALS: Record<StreamRefusal, (config: RelayConfig) => string> = {
  relay_full: (c) => `Too many event streams are open on this relay (maxSseClients ${c.maxSseClients})`,
  merchant_full: (c) => `Too many event streams are open for this merchant's tills (maxStreamsPerMerchant ${c.maxStreamsPerMerchant})`,
  token_full: (c) => `This till token already holds ${c.maxStreamsPerToken} event streams (maxStreamsPerToken); close one first`,
};

/** The till a request's bearer token belongs to (the store compares hashes: see its findTill). */
function authenticate(store: RelayStore, req: IncomingMessage): TillIdentity | null {
  const auth = req.headers.authorization;
  const m = auth ? /^Bearer (\S+)$/.exec(auth) : null;
  const token = m?.[1];
  if (!token || !RELAY_TOKEN.test(token)) return null;
  return store.findTill(hashRelayToken(token)) ?? null;
}

/** GET /v1/events: the till's merchant's stream, resumed after Last-Event-ID (preferred) or ?after=. */
function events(deps: TillApiDeps, req: IncomingMessage, res: ServerResponse, url: URL, till: TillIdentity): void {
  const q = eventsQuerySchema.safeParse(queryObject(url));
  if (!q.success) return badQuery(res, q.error);
  const lastEventId = req.headers['last-event-id'];
  let after = q.data.after ?? 0;
  if (typeof lastEventId === 'string' && lastEventId !== '') {
    const parsed = seqParam.safeParse(lastEventId.trim());
    if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', 'Last-Event-ID: must be a sequence number');
    after = parsed.data;
  }
  // The URL's receivedAt names the event at the URL's `after`: a browser's reconnect keeps the URL and moves Last-Event-ID on.
  const receivedAt = after === q.data.after ? q.data.afterReceivedAt : undefined;
  const refused = deps.streams.open(req, res, till, { after, receivedAt }, q.data.environment);
  if (refused) {
    if (deps.perMerchantMetrics) deps.metrics.merchantTillRefusals.inc({ merchant: till.merchantId, reason: refused });
    deps.warnings.warn('sse_refused', refused, { merchantId: till.merchantId, till: till.label, requestId: requestIdOf(req) });
    // The instance's own pool is full: 503. One merchant's or one token's share: 429, which no proxy counts.
    if (refused === 'relay_full') sendInstanceUnavailable(res, REFUSALS[refused](deps.getConfig()), 10);
    else sendRateLimited(res, REFUSALS[refused](deps.getConfig()), 10);
  }
}

/** GET /v1/transactions: a page of the merchant's log, or the event for a clientReference. */
async function transactions(deps: TillApiDeps, res: ServerResponse, url: URL, till: TillIdentity): Promise<void> {
  const { store } = deps;
  const { merchantId } = till;
  const q = transactionsQuerySchema.safeParse(queryObject(url));
  if (!q.success) return badQuery(res, q.error);
  if (q.data.clientReference !== undefined) {
    const event = await store.byClientReference(merchantId, q.data.clientReference, q.data.environment);
    if (!event) return sendError(res, 404, 'NOT_FOUND', 'No transaction with that clientReference');
    return sendJson(res, 200, event);
  }
  const after = q.data.after ?? 0;
  const lastSeq = await store.lastSeq(merchantId);
  const logId = store.logId(merchantId);
  if (after > lastSeq) {
    // The till's cursor points beyond this log: it was written against a log that is gone (a wiped
    // database, a restored backup). Said plainly, so the till starts again from 0 instead of
    // waiting for the numbers to catch up and missing everything until then.
    return sendJson(res, 409, {
      error: {
        code: CURSOR_AHEAD,
        message: `after (${after}) is beyond this log's last sequence (${lastSeq}); read again from 0`,
        logId,
        lastSeq,
      },
    });
  }
  const standing = await cursorStanding(store, merchantId, after, q.data.afterReceivedAt);
  if (standing.kind === 'forked') {
    // The event at the till's cursor is not the one it read: the log was restored from a backup and
    // numbered again past it. The till reads it again from 0 (it keeps each result once per reference).
    return sendJson(res, 409, {
      error: {
        code: CURSOR_FORKED,
        message: `event ${after} is not the one this till read (the log was restored from an earlier copy); read again from 0`,
        logId,
        lastSeq,
      },
    });
  }
  if (standing.kind === 'pruned') {
    const { prunedThrough } = standing;
    // Retention pruned events this till never read: said plainly (and logged by the till), then it
    // reads on from the oldest kept event. A till starting from 0 simply gets what is kept.
    return sendJson(res, 410, {
      error: {
        code: CURSOR_PRUNED,
        message: `events ${after + 1} to ${prunedThrough} were pruned (older than this relay keeps); read on from after=${prunedThrough}`,
        logId,
        lastSeq,
        prunedThrough,
      },
    });
  }
  const { maxPageSize, maxPageBytes } = deps.getConfig();
  const limit = Math.min(q.data.limit ?? 100, maxPageSize);
  // The page holds what is left of the merchant's events this second (a shorter page: the till reads on).
  const granted = deps.reads.budget.reserve(merchantId, limit);
  let sent = 0;
  let page: Awaited<ReturnType<typeof readPage>>;
  try {
    page = await readPage(store, merchantId, after, { limit: granted, maxBytes: maxPageBytes }, q.data.environment);
    sent = page.items.length;
  } finally {
    deps.reads.budget.settle(merchantId, granted, sent);
  }
  sendPage(res, logId, after, page);
  store.noteRead(till, page.nextAfter ?? after);
}

/** GET /v1/transactions/<reference>: another merchant's reference answers 404, never 403, so its existence stays private. */
async function oneTransaction(deps: TillApiDeps, res: ServerResponse, reference: string, url: URL, merchantId: string): Promise<void> {
  const env = url.searchParams.get('environment');
  if (env !== null && env !== 'test' && env !== 'live') return sendError(res, 404, 'NOT_FOUND', 'No transaction with that reference');
  const event = await deps.store.byReference(merchantId, reference, env ?? undefined);
  if (!event) return sendError(res, 404, 'NOT_FOUND', 'No transaction with that reference');
  sendJson(res, 200, event);
}

/** A read past its token's or merchant's share: 429 naming the limit, before the store is touched. */
function refuseRead(
  deps: TillApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  till: TillIdentity,
  refusal: Extract<ReturnType<ReadShares['admit']>, { ok: false }>,
): void {
  deps.metrics.shareRefusals.inc({ limit: refusal.limit });
  if (deps.perMerchantMetrics) deps.metrics.merchantTillRefusals.inc({ merchant: till.merchantId, reason: refusal.reason });
  deps.warnings.warn('till_read_refused', refusal.reason, { merchantId: till.merchantId, till: till.label, requestId: requestIdOf(req) });
  sendRateLimited(res, refusal.message, refusal.retryAfterSeconds);
}

export function createTillApi(deps: TillApiDeps) {
  function refuse(req: IncomingMessage, res: ServerResponse, path: string): void {
    deps.metrics.tillAuthFailures.inc();
    deps.warnings.warn('till_unauthenticated', 'no_valid_token', { path, requestId: requestIdOf(req) });
    sendError(res, 401, 'UNAUTHENTICATED', 'A valid relay token is required (Authorization: Bearer rt_…)', {
      'www-authenticate': 'Bearer realm="momo-relay"',
    });
  }

  /** A read the store could not answer (its database unreachable): 503, the till retries. */
  function readFailed(req: IncomingMessage, res: ServerResponse, till: TillIdentity, err: unknown): void {
    const path = req.url?.split('?')[0];
    deps.log({
      level: 'error',
      msg: 'till_read_failed',
      merchantId: till.merchantId,
      requestId: requestIdOf(req),
      path,
      error: (err as Error).message,
    });
    if (!res.headersSent) sendError(res, 503, 'INTERNAL', 'The relay cannot read its store right now; retry later', { 'retry-after': '2' });
    else res.destroy();
  }

  /** Handles the till routes; returns false when the path is not one of them. */
  return function handleTill(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const path = url.pathname;
    const isEvents = path === PATHS.events;
    const isList = path === PATHS.list;
    const one = ONE.exec(path);
    if (!isEvents && !isList && !one) return false;
    if (req.method !== 'GET') {
      sendError(res, 405, 'VALIDATION_ERROR', 'Only GET is allowed here', { allow: 'GET' });
      return true;
    }
    const till = authenticate(deps.store, req);
    if (!till) {
      refuse(req, res, path);
      return true;
    }
    if (till.suspended) {
      // The merchant is suspended: its tills wait and retry (its streams were ended).
      sendSuspended(res, { 'retry-after': '60' });
      return true;
    }
    res.setHeader(RELAY_LOG_ID_HEADER, deps.store.logId(till.merchantId));
    if (isEvents) {
      events(deps, req, res, url, till);
      return true;
    }
    const admitted = deps.reads.admit(till);
    if (!admitted.ok) {
      refuseRead(deps, req, res, till, admitted);
      return true;
    }
    res.once('close', admitted.done);
    if (isList) transactions(deps, res, url, till).catch((err: unknown) => readFailed(req, res, till, err));
    else {
      let reference: string;
      try {
        reference = decodeURIComponent((one as RegExpExecArray)[1] as string);
      } catch {
        sendError(res, 400, 'VALIDATION_ERROR', 'reference: badly encoded');
        return true;
      }
      oneTransaction(deps, res, reference, url, till.merchantId).catch((err: unknown) => readFailed(req, res, till, err));
    }
    return true;
  };
}
