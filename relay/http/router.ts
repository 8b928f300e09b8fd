/**
 * The public port's routes: the service's deliveries (the hot path, matched first), /healthz,
 * then the tills' API and the owner's page; anything else is 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, sendJson } from '../../shared/http-util.js';
import type { RelayMetrics } from '../ops/index.js';
import type { RelayStore, Retention } from '../store/index.js';
import { OWNER_ROUTES, type OwnerView } from './owner/index.js';
import { TILL_ROUTES, type createTillApi, type EventStreams } from './tills/index.js';
import type { WebhookReceiver } from './webhooks/index.js';

const WEBHOOKS = '/v1/webhooks';
const HEALTH = '/healthz';

/** Every route of the public port as `METHOD /path`: relay/docs/http-api.md lists each (its test reads this). */
export const PUBLIC_ROUTES: readonly string[] = [`POST ${WEBHOOKS}`, `GET ${HEALTH}`, ...TILL_ROUTES, ...OWNER_ROUTES];

export type RouteDeps = {
  store: RelayStore;
  streams: EventStreams;
  metrics: RelayMetrics;
  receiver: WebhookReceiver;
  handleTill: ReturnType<typeof createTillApi>;
  owner: OwnerView;
  isClosing: () => boolean;
  retention: Retention;
};

/**
 * The public health check: 200 {"ok":true} while deliveries can be committed, 503 {"ok":false} while
 * shutting down or while the database is unreachable. Nothing else: an outsider learns no database
 * address, driver message or merchant count (the reason is in the logs, the figures in the admin listener's /metrics).
 */
async function health(deps: RouteDeps, res: ServerResponse): Promise<void> {
  const state = deps.isClosing() ? { ok: false } : await deps.store.health();
  if (!deps.isClosing()) deps.metrics.databaseUp.set(state.ok ? 1 : 0);
  sendJson(res, state.ok ? 200 : 503, { ok: state.ok });
}

/** The request target as a URL, or null when it is not one (e.g. `http://[::1`). */
function parseTarget(target: string | undefined): URL | null {
  try {
    return new URL(target ?? '/', 'http://relay.invalid');
  } catch {
    return null;
  }
}

export function createRouter(deps: RouteDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { receiver, handleTill, isClosing } = deps;

  function webhook(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return sendError(res, 405, 'VALIDATION_ERROR', 'Only POST is allowed here', { allow: 'POST' });
    if (isClosing()) {
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down; retry later', { connection: 'close', 'retry-after': '5' });
    }
    receiver.handle(req, res);
  }

  return function route(req, res) {
    // The hot path (the service's deliveries) skips URL parsing.
    if (req.url === WEBHOOKS) return webhook(req, res);
    const url = parseTarget(req.url);
    if (!url) return sendError(res, 400, 'VALIDATION_ERROR', 'Malformed request target', { connection: 'close' });
    if (url.pathname === WEBHOOKS) return webhook(req, res);
    if (url.pathname === HEALTH && req.method === 'GET') return void health(deps, res);
    if (url.pathname === '/metrics') {
      return sendError(res, 404, 'NOT_FOUND', 'The metrics are served on the admin listener (--admin-port), not on the public port');
    }
    if (isClosing() && url.pathname === '/v1/events') {
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down', { 'retry-after': '2' });
    }
    if (handleTill(req, res, url)) return;
    if (deps.owner.handle(req, res, url)) return;
    sendError(res, 404, 'NOT_FOUND', 'No such endpoint');
  };
}
