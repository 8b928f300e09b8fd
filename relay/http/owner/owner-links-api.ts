/**
 * Viewer links, asked for by a till with its till token: `POST /v1/owner-links` makes one
 * (its one-time invitation is answered once, only its hash is kept), `GET /v1/owner-links` lists the
 * merchant's with their phones, `DELETE /v1/owner-links/<id>` turns one off at once (its open pages are
 * told), `POST /v1/owner-links/<id>/invitation` invites another phone (link-phones.ts),
 * `DELETE /v1/owner-links/<id>/devices/<od_…>` turns one phone off, and
 * `PATCH /v1/owner-links` `{"timeZone":"…"}` moves every link of the merchant to the shop's new time
 * zone (the till sends it when the owner changes the zone in Settings). A link reads one merchant and
 * one environment, and nothing but the owner's page's data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { environmentSchema } from '../../../shared/domain-schemas.js';
import { isValidTimeZone } from '../../../shared/local-date.js';
import { RELAY_TOKEN } from '../../../shared/relay-wire.js';
import { parseJson, readBody, sendError, sendJson } from '../../../shared/http-util.js';
import { hashRelayToken, type LogFn, type RelayConfig, type RelayMetrics } from '../../ops/index.js';
import type { OwnerLink, RelayStore, TillIdentity } from '../../store/index.js';
import { sendSuspended } from '../refusals.js';
import { neutralise } from './figures.js';
import { invitationExpiry, invite, linkView, list, revokeDevice, sendLinksFull } from './link-phones.js';

/** A viewer token: `ov_` + 32 random bytes, base64url. Never logged, never in a URL the browser sends. */
export const OWNER_TOKEN = /^ov_[A-Za-z0-9_-]{43}$/;

export const DEFAULT_OWNER_TIME_ZONE = 'Africa/Accra';

const createSchema = z.strictObject({
  label: z
    .string()
    .transform((s) => neutralise(s, 60))
    .refine((s) => s.length > 0, 'give the link a name, such as "Auntie Efua\'s phone"'),
  environment: environmentSchema,
  timeZone: z.string().max(64).refine(isValidTimeZone, 'not a time zone this relay knows (e.g. Africa/Accra)').optional(),
});

export type OwnerLinksDeps = {
  store: RelayStore;
  /** A link was turned off here: its open pages and cached look-ups hear it at once. */
  onRevoked: (id: string) => void;
  /** A phone was turned off here: its open pages and cached look-ups hear it at once. */
  onDeviceRevoked: (id: string) => void;
  /** Links changed here (their time zone): cached look-ups are dropped. */
  onChanged: () => void;
  log: LogFn;
  now: () => number;
  /** maxOwnerLinksPerMerchant, read at each request (it changes on reload). */
  getConfig: () => RelayConfig;
  metrics: RelayMetrics;
};

function tillOf(store: RelayStore, req: IncomingMessage): TillIdentity | null {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  const token = m?.[1];
  if (!token || !RELAY_TOKEN.test(token)) return null;
  return store.findTill(hashRelayToken(token)) ?? null;
}

/** The store counts the merchant's links on and stores the new one in one step, on every instance sharing it. */
async function create(deps: OwnerLinksDeps, req: IncomingMessage, res: ServerResponse, till: TillIdentity): Promise<void> {
  const body = await readBody(req, 4096);
  if (!body.ok) return sendError(res, 413, 'VALIDATION_ERROR', 'Request body over 4096 bytes');
  const json = parseJson(body.raw);
  if (!json.ok) return sendError(res, 400, 'VALIDATION_ERROR', json.message);
  const parsed = createSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return sendError(res, 400, 'VALIDATION_ERROR', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  const max = deps.getConfig().maxOwnerLinksPerMerchant;
  const input = parsed.data;
  const token = `ov_${randomBytes(32).toString('base64url')}`;
  const expiresAt = invitationExpiry(deps.now());
  const link: OwnerLink = {
    id: `ol_${randomBytes(9).toString('base64url')}`,
    merchantId: till.merchantId,
    environment: input.environment,
    label: input.label,
    timeZone: input.timeZone ?? DEFAULT_OWNER_TIME_ZONE,
    createdBy: till.label,
    createdAt: new Date(deps.now()).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
    inviteExpiresAt: expiresAt,
    inviteUsedAt: null,
    createdByToken: till.tokenHash,
  };
  if ((await deps.store.ownerView.createLink({ ...link, tokenHash: hashRelayToken(token) }, max)) === 'full') {
    return sendLinksFull(deps, res, till, max);
  }
  deps.log({ level: 'info', msg: 'owner_link_created', merchantId: till.merchantId, link: link.id, environment: link.environment });
  // The token travels in the fragment: browsers never send it to a server nor in a Referer.
  sendJson(res, 201, { link: linkView(link, []), token, path: `/owner#t=${token}`, expiresAt });
}

const zoneSchema = z.strictObject({
  timeZone: z.string().max(64).refine(isValidTimeZone, 'not a time zone this relay knows (e.g. Africa/Accra)'),
});

/** The shop's time zone changed at the till: its links count days in the new zone from their next request. */
async function moveZone(deps: OwnerLinksDeps, req: IncomingMessage, res: ServerResponse, till: TillIdentity): Promise<void> {
  const body = await readBody(req, 1024);
  if (!body.ok) return sendError(res, 413, 'VALIDATION_ERROR', 'Request body over 1024 bytes');
  const json = parseJson(body.raw);
  if (!json.ok) return sendError(res, 400, 'VALIDATION_ERROR', json.message);
  const parsed = zoneSchema.safeParse(json.value);
  if (!parsed.success) return sendError(res, 400, 'VALIDATION_ERROR', `timeZone: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const changed = await deps.store.ownerView.setTimeZone(till.merchantId, parsed.data.timeZone);
  deps.onChanged();
  deps.log({ level: 'info', msg: 'owner_links_time_zone', merchantId: till.merchantId, timeZone: parsed.data.timeZone, changed });
  sendJson(res, 200, { timeZone: parsed.data.timeZone, changed });
}

async function revoke(deps: OwnerLinksDeps, res: ServerResponse, till: TillIdentity, id: string): Promise<void> {
  const found = await deps.store.ownerView.revokeLink(till.merchantId, id, new Date(deps.now()).toISOString());
  if (!found) return sendError(res, 404, 'NOT_FOUND', 'No such link');
  deps.onRevoked(id);
  deps.log({ level: 'info', msg: 'owner_link_revoked', merchantId: till.merchantId, link: id });
  res.writeHead(204, { 'cache-control': 'no-store' }).end();
}

/** The routes and the methods each takes, named as relay/docs/http-api.md names them (`<id>` a link's id, `<device>` a phone's). */
const ROUTES = {
  links: { path: '/v1/owner-links', allow: 'GET, POST, PATCH' },
  link: { path: '/v1/owner-links/<id>', allow: 'DELETE' },
  invitation: { path: '/v1/owner-links/<id>/invitation', allow: 'POST' },
  device: { path: '/v1/owner-links/<id>/devices/<device>', allow: 'DELETE' },
} as const;

const PATTERNS = Object.entries(ROUTES).map(([name, { path }]) => ({
  name: name as keyof typeof ROUTES,
  pattern: new RegExp(`^${path.replace('<id>', '(ol_[A-Za-z0-9_-]{12})').replace('<device>', '(od_[A-Za-z0-9_-]{12})')}$`),
}));

/** Each route as `METHOD /path` (relay/docs/http-api.md lists every one). */
export const OWNER_LINK_ROUTES: readonly string[] = Object.values(ROUTES).flatMap(({ path, allow }) =>
  allow.split(', ').map((method) => `${method} ${path}`),
);

/** The route a path names, with its ids; null when none does. */
function routeOf(path: string): { name: keyof typeof ROUTES; id: string; device: string } | null {
  for (const { name, pattern } of PATTERNS) {
    const m = pattern.exec(path);
    if (m) return { name, id: m[1] ?? '', device: m[2] ?? '' };
  }
  return null;
}

/** Handles /v1/owner-links routes; false when the path is not one of them. */
export function createOwnerLinksApi(deps: OwnerLinksDeps) {
  return function handleOwnerLinks(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (url.pathname !== ROUTES.links.path && !url.pathname.startsWith(`${ROUTES.links.path}/`)) return false;
    const route = routeOf(url.pathname);
    if (!route) {
      sendError(res, 404, 'NOT_FOUND', 'No such link');
      return true;
    }
    const allowed = ROUTES[route.name].allow;
    if (!allowed.split(', ').includes(req.method ?? '')) {
      sendError(res, 405, 'VALIDATION_ERROR', `Only ${allowed} is allowed here`, { allow: allowed });
      return true;
    }
    const till = tillOf(deps.store, req);
    if (!till) {
      sendError(res, 401, 'UNAUTHENTICATED', 'A valid relay token is required (Authorization: Bearer rt_…)', {
        'www-authenticate': 'Bearer realm="momo-relay"',
      });
      return true;
    }
    // A suspended merchant's tills make, list and change no links until it is resumed.
    if (till.suspended) {
      sendSuspended(res);
      return true;
    }
    const failed = (err: unknown) => {
      deps.log({ level: 'error', msg: 'owner_links_failed', error: (err as Error).message });
      if (!res.headersSent) sendError(res, 503, 'INTERNAL', 'The relay cannot reach its store right now; retry later');
    };
    const { name, id, device } = route;
    if (name === 'link') revoke(deps, res, till, id).catch(failed);
    else if (name === 'device') revokeDevice(deps, res, till, id, device).catch(failed);
    else if (name === 'invitation') invite(deps, res, till, id).catch(failed);
    else if (req.method === 'POST') create(deps, req, res, till).catch(failed);
    else if (req.method === 'PATCH') moveZone(deps, req, res, till).catch(failed);
    else list(deps, res, till).catch(failed);
    return true;
  };
}
