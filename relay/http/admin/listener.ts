/**
 * The admin HTTP API: JSON under /admin/v1/, on its own listener (`--admin-port`, on 127.0.0.1 unless
 * `--admin-host` says otherwise), never on the public port. Every request needs
 * `Authorization: Bearer at_…` (an admin token made by `relay admin-token create`); the token is
 * looked up by its hash in the database on each request, so a revoked or expired token stops working at
 * once on every instance. A refused token is counted (relay_admin_auth_failures_total, by reason) and logged,
 * one line per reason per interval (WarningSummary). Changes are audited with the token's number. The
 * listener also serves the Prometheus /metrics, which the public port does not.
 *
 * A store without administration (the single-shop SQLite relay keeps its keys and tokens in its config
 * file and has no admin tokens) says so, and every admin route answers 501 with its reason.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson, readBody, sendError, sendJson } from '../../../shared/http-util.js';
import type { LogFn, RelayMetrics, WarningSummary } from '../../ops/index.js';
import { isUnsupported, type AdminAuth, type Administration, type RelayStore, type Unsupported } from '../../store/index.js';
import { adminActor, MasterKeyError, TenantError } from '../../store/pg/index.js';
import type { EventStreams } from '../tills/index.js';
import { adminRoute, type AdminContext } from './routes.js';

export type AdminApiDeps = {
  /** The store's administration, or why it has none (every route then answers 501 saying so). */
  admin: Administration | Unsupported;
  /** Health details: database state, unreadable keys, merchants, streams. */
  health: () => Promise<unknown>;
  /** The Prometheus exposition. */
  metricsPage: (res: ServerResponse) => void;
  metrics: RelayMetrics;
  warnings: WarningSummary;
  log: LogFn;
};

const PREFIX = '/admin/v1/';

function tenantStatus(message: string): number {
  if (/^No (merchant|key|owner link)|has no till/.test(message)) return 404;
  if (/already|not suspended|no till has read/.test(message)) return 409;
  return 400;
}

function bearer(req: IncomingMessage): string | null {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  return m?.[1] ?? null;
}

function parts(pathname: string): string[] | null {
  try {
    return pathname.slice(PREFIX.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req);
  if (!body.ok) throw new TenantError('body: larger than 16 KiB');
  if (body.raw.length === 0) return {};
  const parsed = parseJson(body.raw);
  if (!parsed.ok) throw new TenantError(parsed.message);
  return parsed.value;
}

/** The admin token's number, or null once the refusal is answered, counted and logged. */
async function authenticated(deps: AdminApiDeps, admin: Administration, req: IncomingMessage, res: ServerResponse): Promise<number | null> {
  const token = bearer(req);
  const auth: AdminAuth = token ? await admin.authenticate(token) : { ok: false, reason: 'missing' };
  if (auth.ok) return auth.tokenId;
  deps.metrics.adminAuthFailures.inc({ reason: auth.reason });
  deps.warnings.warn('admin_auth_refused', auth.reason, {
    address: req.socket.remoteAddress,
    ...(auth.tokenId !== undefined ? { tokenId: auth.tokenId } : {}),
  });
  const why =
    auth.reason === 'revoked' || auth.reason === 'expired' ? `This admin token is ${auth.reason}` : 'A valid admin token is required';
  sendError(res, 401, 'UNAUTHENTICATED', `${why} (Authorization: Bearer at_…; momo-relay admin-token create)`, {
    'www-authenticate': 'Bearer realm="momo-relay-admin"',
  });
  return null;
}

async function handle(deps: AdminApiDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://admin.invalid');
  if (url.pathname === '/metrics' && req.method === 'GET') return deps.metricsPage(res);
  if (!url.pathname.startsWith(PREFIX)) return sendError(res, 404, 'NOT_FOUND', 'No such endpoint (the admin API is under /admin/v1/)');
  const { admin } = deps;
  if (isUnsupported(admin)) return sendJson(res, 501, { error: { code: 'NOT_IMPLEMENTED', message: admin.unsupported } });
  const tokenId = await authenticated(deps, admin, req, res);
  if (tokenId === null) return;
  const split = parts(url.pathname);
  if (!split) return sendError(res, 400, 'VALIDATION_ERROR', 'Badly encoded path');
  const ctx: AdminContext = { admin, health: deps.health };
  const answer = await adminRoute(ctx, {
    method: req.method ?? 'GET',
    parts: split,
    query: url.searchParams,
    body: () => readJsonBody(req),
    actor: adminActor(tokenId),
  });
  if (!answer) return sendError(res, 404, 'NOT_FOUND', `No such admin endpoint: ${req.method} ${url.pathname}`);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  sendJson(res, answer.status, answer.body);
}

export type AdminListenerOptions = {
  port: number;
  host: string;
  store: RelayStore;
  streams: Pick<EventStreams, 'size'>;
  metrics: RelayMetrics;
  metricsPage: (res: ServerResponse) => void;
  warnings: WarningSummary;
  isClosing: () => boolean;
  log: LogFn;
};

export type AdminListener = { url: string; close(): Promise<void> };

/** What the admin listener says of this instance's health (the public /healthz says only whether it is ok). */
async function healthDetails(o: AdminListenerOptions): Promise<Record<string, unknown>> {
  const { store } = o;
  const database = o.isClosing() ? { ok: false, reason: 'shutting down' } : await store.health();
  const base = { ok: database.ok, store: store.kind, database, sseClients: o.streams.size, closing: o.isClosing() };
  const { tenancy } = store;
  if (tenancy.merchants === 'one') return { ...base, lastSeq: tenancy.lastSeq() };
  const unreadableKeys = tenancy.unreadableKeys();
  o.metrics.unreadableKeys.set(unreadableKeys.length);
  const masterKey = tenancy.masterKeyInUse();
  return { ...base, merchants: tenancy.count(), unreadableKeys, masterKey };
}

/** Whether an address the listener is bound to is reached from this machine only. */
export function isLoopback(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(v4);
}

/** Starts the admin listener on its own port (loopback by default; another address is warned of at start). */
export function startAdminListener(o: AdminListenerOptions): Promise<AdminListener> {
  const deps: AdminApiDeps = {
    admin: o.store.administration(),
    health: () => healthDetails(o),
    metricsPage: o.metricsPage,
    metrics: o.metrics,
    warnings: o.warnings,
    log: o.log,
  };
  const server = createAdminServer(deps);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      const a = server.address() as AddressInfo;
      const url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
      if (!isLoopback(a.address)) {
        o.log({
          level: 'warn',
          msg: 'admin_listener_exposed',
          adminUrl: url,
          detail:
            'The admin API and /metrics listen beyond this machine: keep the port off the internet (firewall, private network), or use --admin-host 127.0.0.1 and an SSH tunnel',
        });
      }
      const close = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ url, close });
    });
  });
}

function createAdminServer(deps: AdminApiDeps) {
  return createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    handle(deps, req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof TenantError) {
        const status = tenantStatus(err.message);
        return sendError(res, status, status === 404 ? 'NOT_FOUND' : status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR', err.message);
      }
      if (err instanceof MasterKeyError) return sendError(res, 409, 'CONFLICT', err.message);
      const code = (err as { code?: string }).code;
      deps.log({ level: 'error', msg: 'admin_request_failed', path: req.url?.split('?')[0], error: (err as Error).message });
      if (!code)
        return sendError(res, 503, 'INTERNAL', 'The relay cannot reach its database right now; retry later', { 'retry-after': '2' });
      sendError(res, 500, 'INTERNAL', 'Internal error');
    });
  });
}
