/**
 * What a phone link reads, read-only, for its one merchant and environment:
 * - `POST /v1/owner/session` `{"token":"ov_…"}`: the page hands over the token it read from its URL
 *   fragment and gets it back as a cookie (HttpOnly, SameSite=Strict, Path=/v1/owner, Secure behind
 *   TLS): why, in docs/security.md;
 * - `GET /v1/owner/summary[?date=YYYY-MM-DD]`: a day's figures (today by default) by till, cashier and
 *   network, and with today the latest payments;
 * - `GET /v1/owner/days`: the last 30 days;
 * - `GET /v1/owner/stream`: new results, live (streams.ts).
 * A turned-off link answers 401 with `revoked: true`. Requests are rate-limited per link, and wrong
 * tokens per client (guard.ts): a client past its limit is answered 429 before any look-up. The sign-in
 * takes only `application/json` and refuses what another site started.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { localDate } from '../../../shared/local-date.js';
import { parseJson, readBody, sendError, sendJson } from '../../../shared/http-util.js';
import { hashRelayToken, type LogFn } from '../../ops/index.js';
import { revokedMessage, type OwnerLink, type RelayStore } from '../../store/index.js';
import { dayFigures, daysFigures, ownerPayment } from './figures.js';
import { OWNER_TOKEN } from './owner-links-api.js';
import type { OwnerStreams } from './streams.js';
import { clientAddress, crossSiteReason, GuessLimiter } from './guard.js';

export const OWNER_COOKIE = 'momo_owner';
const LATEST = 20;

export type OwnerViewerDeps = {
  store: RelayStore;
  streams: OwnerStreams;
  log: LogFn;
  now: () => number;
  /** Per link: a bucket of `burst` requests refilled at `perSecond`. */
  rate: { burst: number; perSecond: number };
  /** Wrong tokens: per client `burst` refilled at `perSecond`; all clients together `globalPerSecond` look-ups. */
  guesses: { burst: number; perSecond: number; globalPerSecond: number };
  /** Addresses of the operator's proxies, whose X-Forwarded-For names the client. */
  trustedProxies: () => readonly string[];
};

type Bucket = { tokens: number; at: number };

function cookieToken(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === OWNER_COOKIE && value && OWNER_TOKEN.test(value)) return value;
  }
  return null;
}

function isTls(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

/** 401: no such link, or one turned off (saying by whom: the shop owner or the relay's operator). */
function refuse(res: ServerResponse, link: OwnerLink | null): void {
  const revoked = Boolean(link?.revokedAt);
  const message = link?.revokedAt ? revokedMessage(link.revokedBy) : 'This link is not valid: ask the shop owner for a new one';
  sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message, revoked } });
}

/** Who may read: a link's look-up (cached for a second), its rate limit, its "last used". */
class LinkGate {
  private readonly buckets = new Map<string, Bucket>();
  private readonly cache = new Map<string, { link: OwnerLink | undefined; at: number }>();
  private readonly touched = new Map<string, number>();
  private readonly guesses: GuessLimiter;
  /** Hashes of tokens that opened a link here: no guess, so never held back by the guessing limits. */
  private readonly known = new Set<string>();

  constructor(private readonly deps: OwnerViewerDeps) {
    this.guesses = new GuessLimiter({ ...deps.guesses, now: deps.now });
  }

  /** The link of a token hash; looked up at most once a second, so a link turned off elsewhere stops within a second. */
  private async find(tokenHash: string): Promise<OwnerLink | undefined> {
    const hit = this.cache.get(tokenHash);
    if (hit && this.deps.now() - hit.at < 1_000) return hit.link;
    const link = await this.deps.store.ownerView.findLink(tokenHash);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tokenHash, { link, at: this.deps.now() });
    if (link) {
      if (this.known.size > 10_000) this.known.clear();
      this.known.add(tokenHash);
    }
    return link;
  }

  forget(): void {
    this.cache.clear();
  }

  private allow(linkId: string): boolean {
    const now = this.deps.now();
    const { burst, perSecond } = this.deps.rate;
    const b = this.buckets.get(linkId) ?? { tokens: burst, at: now };
    b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    if (this.buckets.size > 10_000) this.buckets.clear();
    this.buckets.set(linkId, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private touch(link: OwnerLink): void {
    const now = this.deps.now();
    if (now - (this.touched.get(link.id) ?? 0) < 60_000) return;
    this.touched.set(link.id, now);
    this.deps.store.ownerView
      .touchLink(link.id, new Date(now).toISOString())
      .catch((err: unknown) => this.deps.log({ level: 'warn', msg: 'owner_link_touch_failed', error: (err as Error).message }));
  }

  /** The link of `token`, or an answer already sent (401, 429). */
  async authorise(req: IncomingMessage, res: ServerResponse, token: string | null): Promise<OwnerLink | null> {
    const client = clientAddress(req, this.deps.trustedProxies());
    const tokenHash = token ? hashRelayToken(token) : null;
    const wait = tokenHash && this.known.has(tokenHash) ? 0 : this.guesses.waitFor(client);
    if (wait > 0) {
      sendError(res, 429, 'RATE_LIMITED', 'Too many wrong links tried from here; wait and try again', { 'retry-after': String(wait) });
      return null;
    }
    const link = tokenHash ? await this.find(tokenHash) : undefined;
    if (!link) this.guesses.missed(client);
    if (!link || link.revokedAt) {
      refuse(res, link ?? null);
      return null;
    }
    if (!this.allow(link.id)) {
      sendError(res, 429, 'RATE_LIMITED', 'Too many requests from this link; wait a few seconds', { 'retry-after': '5' });
      return null;
    }
    this.touch(link);
    return link;
  }
}

async function session(gate: LinkGate, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const crossSite = crossSiteReason(req);
  if (crossSite) {
    req.resume();
    return sendError(res, 403, 'FORBIDDEN', `Another site cannot open a link on this relay (${crossSite})`);
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return sendError(res, 415, 'VALIDATION_ERROR', 'The link is handed over as application/json only');
  }
  const body = await readBody(req, 1024);
  const json = body.ok ? parseJson(body.raw) : null;
  const token = json?.ok ? (json.value as { token?: unknown } | null)?.token : undefined;
  const link = await gate.authorise(req, res, typeof token === 'string' && OWNER_TOKEN.test(token) ? token : null);
  if (!link) return;
  const cookie = `${OWNER_COOKIE}=${token}; Path=/v1/owner; HttpOnly; SameSite=Strict; Max-Age=31536000${isTls(req) ? '; Secure' : ''}`;
  sendJson(res, 200, { label: link.label, environment: link.environment, timeZone: link.timeZone }, { 'set-cookie': cookie });
}

type Route = (deps: OwnerViewerDeps, req: IncomingMessage, res: ServerResponse, url: URL, link: OwnerLink) => Promise<void>;

const summary: Route = async (deps, _req, res, url, link) => {
  const today = localDate(deps.now(), link.timeZone);
  const date = url.searchParams.get('date') ?? today;
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || date > today) {
    return sendError(res, 400, 'VALIDATION_ERROR', 'date: a day up to today, as YYYY-MM-DD');
  }
  const { store } = deps;
  // Read before the figures: the page's stream starts here, and a payment in both is shown once (by seq).
  const lastSeq = await store.lastSeq(link.merchantId);
  const day = await dayFigures(store.ownerView, link.merchantId, link.environment, date, link.timeZone);
  const latest = date === today ? (await store.ownerView.latest(link.merchantId, link.environment, LATEST)).map(ownerPayment) : [];
  const info = { label: link.label, environment: link.environment, timeZone: link.timeZone };
  sendJson(res, 200, { link: info, today, lastSeq, day, latest, at: new Date(deps.now()).toISOString() });
};

const days: Route = async (deps, _req, res, _url, link) => {
  const today = localDate(deps.now(), link.timeZone);
  const list = await daysFigures(deps.store.ownerView, link.merchantId, link.environment, today, link.timeZone, 30);
  sendJson(res, 200, { today, days: list });
};

const stream: Route = async (deps, req, res, url, link) => {
  const given = req.headers['last-event-id'] ?? url.searchParams.get('after') ?? '0';
  const after = typeof given === 'string' && /^[0-9]{1,15}$/.test(given.trim()) ? Number(given.trim()) : 0;
  if (!deps.streams.open(req, res, link, after)) {
    sendError(res, 503, 'RATE_LIMITED', 'Too many pages are open on this relay; retry shortly', { 'retry-after': '10' });
  }
};

const ROUTES: Record<string, Route> = { '/v1/owner/summary': summary, '/v1/owner/days': days, '/v1/owner/stream': stream };

export function createOwnerViewerApi(deps: OwnerViewerDeps) {
  const gate = new LinkGate(deps);

  /** Handles /v1/owner/… ; false when the path is not one of them. */
  function handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (!url.pathname.startsWith('/v1/owner/')) return false;
    const failed = (err: unknown) => {
      deps.log({ level: 'error', msg: 'owner_view_failed', path: url.pathname, error: (err as Error).message });
      if (!res.headersSent)
        sendError(res, 503, 'INTERNAL', 'The relay cannot read its store right now; retry later', { 'retry-after': '2' });
    };
    const route = ROUTES[url.pathname];
    const method = url.pathname === '/v1/owner/session' ? 'POST' : 'GET';
    if (!route && method === 'GET') sendError(res, 404, 'NOT_FOUND', 'No such endpoint');
    else if (req.method !== method) sendError(res, 405, 'VALIDATION_ERROR', `Only ${method} is allowed here`, { allow: method });
    else if (!route) session(gate, req, res).catch(failed);
    else
      gate
        .authorise(req, res, cookieToken(req))
        .then((link) => (link ? route(deps, req, res, url, link) : undefined))
        .catch(failed);
    return true;
  }

  /** Forgets cached look-ups (a link was turned off on this instance). */
  return { handle, forget: () => gate.forget() };
}
