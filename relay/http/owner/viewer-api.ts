/**
 * What a phone link reads, read-only, for its one merchant and environment:
 * - `POST /v1/owner/session` `{"token":"ov_…"}`: the page hands over the one-time invitation it read from
 *   its URL fragment and gets this phone's own device credential as a cookie (HttpOnly, SameSite=Strict,
 *   Path=/v1/owner, Secure behind TLS); the invitation is then spent: why, in docs/security.md;
 * - `GET /v1/owner/summary[?date=YYYY-MM-DD]`: a day's figures (today by default) by till, cashier and
 *   network, and with today the latest payments;
 * - `GET /v1/owner/days`: the last 30 days;
 * - `GET /v1/owner/stream`: new results, live (streams.ts).
 * A turned-off link or phone answers 401 with `revoked: true`, a suspended merchant 403 with `suspended:
 * true` (device-gate.ts). Requests are rate-limited per link, and wrong tokens per client (guard.ts): a client past its limit is answered 429 before any look-up. The sign-in
 * takes only `application/json` and refuses what another site started.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { localDate } from '../../../shared/local-date.js';
import { parseJson, readBody, sendError, sendJson } from '../../../shared/http-util.js';
import { hashRelayToken, type RelayConfig } from '../../ops/index.js';
import { sendInstanceUnavailable, sendRateLimited } from '../refusals.js';
import { DEVICE_DAYS, deviceName, invitationRefusal, revokedMessage, type OwnerLink } from '../../store/index.js';
import { deviceExpiry, DeviceGate, sendGuessRefused, type Access, type GateDeps } from './device-gate.js';
import { dayFigures, daysFigures, neutralise, ownerPayment } from './figures.js';
import { OWNER_TOKEN } from './owner-links-api.js';
import type { OwnerStreamRefusal, OwnerStreams } from './streams.js';
import { clientAddress, crossSiteReason } from './guard.js';
import { bodyDeadline, sendBodyTimeout } from '../client-limits.js';
import type { WarningSummary } from '../../ops/index.js';

export const OWNER_COOKIE = 'momo_owner';
const LATEST = 20;

export type OwnerViewerDeps = GateDeps & {
  streams: OwnerStreams;
  /** A sign-in's body must arrive within this (client-limits.ts): it comes before any credential is proved. */
  bodyTimeoutMs: () => number;
  /** Requests their clients abandoned, logged once per interval with a count. */
  warnings?: WarningSummary;
};

/** A device credential: `od_` + 32 random bytes, base64url. Only ever in the HttpOnly cookie, never in a URL. */
export const DEVICE_TOKEN = /^od_[A-Za-z0-9_-]{43}$/;

function cookieCredential(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === OWNER_COOKIE && value && DEVICE_TOKEN.test(value)) return value;
  }
  return null;
}

function isTls(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

/** The device's cookie, good for DEVICE_DAYS from now (set again on each load: it slides as the store's end does). */
function deviceCookie(req: IncomingMessage, credential: string): string {
  const maxAge = DEVICE_DAYS * 86_400;
  return `${OWNER_COOKIE}=${credential}; Path=/v1/owner; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${isTls(req) ? '; Secure' : ''}`;
}

const linkInfo = (link: OwnerLink) => ({ label: link.label, environment: link.environment, timeZone: link.timeZone });

/**
 * The exchange: a one-time invitation (`ov_…`, from the QR code's fragment) for this phone's own device
 * credential, set as a cookie. A spent or expired invitation opens nothing and says why; a phone already
 * in on that link (its cookie) is simply let in again.
 */
async function session(deps: OwnerViewerDeps, gate: DeviceGate, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
  const ms = deps.bodyTimeoutMs();
  bodyDeadline(req, ms, () => {
    deps.warnings?.warn('owner_session_refused', 'body_timeout', { status: 408 });
    sendBodyTimeout(res, ms);
  });
  const body = await readBody(req, 1024);
  if (res.headersSent) return;
  const json = body.ok ? parseJson(body.raw) : null;
  const given = json?.ok ? (json.value as { token?: unknown } | null)?.token : undefined;
  const token = typeof given === 'string' && OWNER_TOKEN.test(given) ? given : null;
  const client = clientAddress(req, deps.trustedProxies());
  const held = gate.guesses.refusal(client);
  if (held) return sendGuessRefused(res, held, deps.metrics);
  const now = deps.now();
  const at = new Date(now).toISOString();
  const credential = `od_${randomBytes(32).toString('base64url')}`;
  const device = {
    id: `od_${randomBytes(9).toString('base64url')}`,
    linkId: '',
    name: neutralise(deviceName(req.headers['user-agent']), 80),
    createdAt: at,
    lastSeenAt: at,
    expiresAt: deviceExpiry(now),
    credentialHash: hashRelayToken(credential),
  };
  const claim = token
    ? await deps.store.ownerView.devices.claim(hashRelayToken(token), device, at)
    : { claimed: false as const, link: undefined };
  if (!claim.link) {
    gate.guesses.missed(client);
    return sendJson(res, 401, {
      error: { code: 'UNAUTHENTICATED', message: 'This link is not valid: ask the till for a new one', revoked: false },
    });
  }
  const link = claim.link;
  if (claim.claimed) {
    gate.know(credential);
    deps.log({ level: 'info', msg: 'owner_device_added', merchantId: link.merchantId, link: link.id, device: device.id });
    return sendJson(res, 200, linkInfo(link), { 'set-cookie': deviceCookie(req, credential) });
  }
  // The owner scanned the same code again on the phone that is already in: nothing to refuse.
  const mine = await gate.peek(cookieCredential(req));
  if (mine && mine.link.id === link.id) return sendJson(res, 200, linkInfo(link));
  const message = link.revokedAt
    ? revokedMessage(link.revokedBy)
    : (invitationRefusal(link, at) ?? 'This link is not valid: ask the till for a new one');
  sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message, revoked: Boolean(link.revokedAt), used: Boolean(link.inviteUsedAt) } });
}

type Route = (deps: OwnerViewerDeps, req: IncomingMessage, res: ServerResponse, url: URL, access: Access) => Promise<void>;

const summary: Route = async (deps, req, res, url, { link }) => {
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
  const credential = cookieCredential(req);
  const cookie: Record<string, string> = credential ? { 'set-cookie': deviceCookie(req, credential) } : {};
  sendJson(res, 200, { link: info, today, lastSeq, day, latest, at: new Date(deps.now()).toISOString() }, cookie);
};

const days: Route = async (deps, _req, res, _url, { link }) => {
  const today = localDate(deps.now(), link.timeZone);
  const list = await daysFigures(deps.store.ownerView, link.merchantId, link.environment, today, link.timeZone, 30);
  sendJson(res, 200, { today, days: list });
};

const stream: Route = async (deps, req, res, url, access) => {
  const given = req.headers['last-event-id'] ?? url.searchParams.get('after') ?? '0';
  const after = typeof given === 'string' && /^[0-9]{1,15}$/.test(given.trim()) ? Number(given.trim()) : 0;
  const refused = deps.streams.open(req, res, access, after);
  if (!refused) return;
  const c = deps.getConfig();
  const limit = STREAM_LIMITS[refused];
  deps.metrics.shareRefusals.inc({ limit });
  deps.metrics.merchantOwnerRefusals.inc({ merchant: access.link.merchantId, reason: refused });
  // The instance's own pool: 503, the proxy tries another instance. A merchant's or a link's share: 429, which no proxy counts.
  if (refused === 'relay_full')
    sendInstanceUnavailable(res, `Too many pages are open on this relay (${limit} ${c[limit]}); retry shortly`, 10);
  else sendRateLimited(res, `${STREAM_SHARES[refused]} (${limit} ${c[limit]}); close one first`, 10);
};

const STREAM_LIMITS = {
  relay_full: 'maxOwnerStreams',
  merchant_full: 'maxOwnerStreamsPerMerchant',
  link_full: 'maxOwnerStreamsPerLink',
} as const satisfies Record<OwnerStreamRefusal, keyof RelayConfig>;

const STREAM_SHARES = {
  merchant_full: "This shop's pages already hold every live view it may open on this relay",
  link_full: "This link's phones already hold every live view they may open",
} as const;

const ROUTES: Record<string, Route> = { '/v1/owner/summary': summary, '/v1/owner/days': days, '/v1/owner/stream': stream };
const SESSION = '/v1/owner/session';

/** Each route as `METHOD /path` (relay/docs/http-api.md lists every one). */
export const OWNER_VIEWER_ROUTES: readonly string[] = [`POST ${SESSION}`, ...Object.keys(ROUTES).map((path) => `GET ${path}`)];

export function createOwnerViewerApi(deps: OwnerViewerDeps) {
  const gate = new DeviceGate(deps);

  /** Handles /v1/owner/… ; false when the path is not one of them. */
  function handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (!url.pathname.startsWith('/v1/owner/')) return false;
    const failed = (err: unknown) => {
      // A client that went away mid-request (its body cut off): common from junk, logged once per interval.
      if (req.destroyed && !req.complete && deps.warnings) {
        if (!res.headersSent) deps.warnings.warn('owner_request_abandoned', url.pathname);
      } else deps.log({ level: 'error', msg: 'owner_view_failed', path: url.pathname, error: (err as Error).message });
      if (!res.headersSent)
        sendError(res, 503, 'INTERNAL', 'The relay cannot read its store right now; retry later', { 'retry-after': '2' });
    };
    const route = ROUTES[url.pathname];
    const method = url.pathname === SESSION ? 'POST' : 'GET';
    if (!route && method === 'GET') sendError(res, 404, 'NOT_FOUND', 'No such endpoint');
    else if (req.method !== method) sendError(res, 405, 'VALIDATION_ERROR', `Only ${method} is allowed here`, { allow: method });
    else if (!route) session(deps, gate, req, res).catch(failed);
    else
      gate
        .authorise(req, res, cookieCredential(req))
        .then((access) => (access ? route(deps, req, res, url, access) : undefined))
        .catch(failed);
    return true;
  }

  /** Forgets cached look-ups (a link was turned off on this instance). */
  return { handle, forget: () => gate.forget() };
}
