/**
 * The companion relay: receives the service's signed webhooks, keeps them durably, pushes
 * final results to tills. `startRelay` is the programmatic entry; relay/cli.ts wraps it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError, sendJson } from '../shared/http-util.js';
import { parseRelayConfig, type RelayConfig, type RelayConfigInput } from './config.js';
import { openRelayDatabase } from './db.js';
import { EventLog } from './event-log.js';
import { GroupCommitter } from './group-commit.js';
import { defaultLog, type LogFn } from './logger.js';
import { RelayMetrics } from './metrics.js';
import { publishCommits } from './publish-commits.js';
import { SseHub } from './sse-hub.js';
import { createTillApi } from './till-api.js';
import { createWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export type { RelayConfig } from './config.js';

export type RelayOptions = {
  port?: number;
  host?: string;
  /** The SQLite file lives here. */
  dataDir: string;
  /**
   * The config object (same shape as the JSON config file). It is validated again here, so a
   * hand-built object gets the defaults and a bad one fails with the field named.
   */
  config: RelayConfig | RelayConfigInput;
  /** Injected clock (ms). */
  now?: () => number;
  /** Structured logs; default JSON lines to stderr. */
  log?: LogFn;
};

export type RunningRelay = {
  url: string;
  /** Stops accepting, finishes in-flight requests, ends SSE streams, closes the database. */
  close(): Promise<void>;
  /** Swaps in a new config (keys, tokens, limits; validated); streams of revoked tokens end. */
  setConfig(config: RelayConfig | RelayConfigInput): void;
  metrics: RelayMetrics;
};

/** The store (read side for tills, write side for deliveries) and what hangs on its commits. */
function openStore(options: RelayOptions, config: RelayConfig, log: LogFn) {
  const db = openRelayDatabase(options.dataDir);
  const eventLog = new EventLog(db);
  const metrics = new RelayMetrics();
  metrics.lastSeq.set(eventLog.lastSeq());
  const hub = new SseHub(eventLog, metrics, { heartbeatMs: config.heartbeatSeconds * 1000, maxClients: config.maxSseClients, log });
  try {
    const committer = new GroupCommitter({
      dataDir: options.dataDir,
      busyTimeoutMs: config.busyTimeoutMs,
      maxBatch: config.groupCommitMaxBatch,
      windowMs: config.groupCommitWindowMs,
      log,
      onCommit: publishCommits({ metrics, hub, log }),
    });
    return { db, eventLog, metrics, hub, committer };
  } catch (err) {
    hub.closeAll();
    db.close();
    throw err;
  }
}

type Store = ReturnType<typeof openStore>;
type RouteDeps = Store & { receiver: WebhookReceiver; handleTill: ReturnType<typeof createTillApi>; isClosing: () => boolean };

function createRouter(deps: RouteDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { eventLog, hub, metrics, receiver, handleTill, isClosing } = deps;

  function webhook(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return sendError(res, 405, 'VALIDATION_ERROR', 'Only POST is allowed here', { allow: 'POST' });
    if (isClosing()) {
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down; retry later', { connection: 'close', 'retry-after': '5' });
    }
    receiver.handle(req, res);
  }

  return function route(req, res) {
    // The hot path (the service's deliveries) skips URL parsing.
    if (req.url === '/v1/webhooks') return webhook(req, res);
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    if (url.pathname === '/v1/webhooks') return webhook(req, res);
    if (url.pathname === '/healthz' && req.method === 'GET') {
      return sendJson(res, isClosing() ? 503 : 200, { ok: !isClosing(), lastSeq: eventLog.lastSeq(), sseClients: hub.size });
    }
    if (url.pathname === '/metrics' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
      res.end(metrics.render());
      return;
    }
    if (isClosing() && url.pathname === '/v1/events') {
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down', { 'retry-after': '2' });
    }
    if (handleTill(req, res, url)) return;
    sendError(res, 404, 'NOT_FOUND', 'No such endpoint');
  };
}

function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shown}:${address.port}`);
    });
  });
}

/** Stops accepting, ends the streams, finishes the deliveries in flight, then closes the store. */
async function shutDown(server: Server, store: Store, receiver: WebhookReceiver, log: LogFn): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  store.hub.closeAll();
  server.closeIdleConnections();
  // Finish the deliveries in flight: being read, verified or committed.
  await receiver.whenIdle(10_000);
  await store.committer.close();
  // Let the last answers flush (their connections then go idle and close); force after 1 s.
  server.closeIdleConnections();
  await Promise.race([stopped, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
  server.closeAllConnections();
  await stopped;
  store.db.close();
  log({ level: 'info', msg: 'relay_stopped' });
}

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const log = options.log ?? defaultLog;
  const now = options.now ?? Date.now;
  let config: RelayConfig = parseRelayConfig(options.config, 'startRelay options.config');
  const getConfig = () => config;
  const store = openStore(options, config, log);
  const { eventLog, hub, metrics, committer } = store;
  const receiver = createWebhookReceiver({ getConfig, committer, metrics, now, log });
  const handleTill = createTillApi({ getConfig, eventLog, hub, metrics, log });
  let closing = false;
  const route = createRouter({ ...store, receiver, handleTill, isClosing: () => closing });

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (err) {
      log({ level: 'error', msg: 'request_failed', path: req.url?.split('?')[0], error: (err as Error).message });
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 10_000;
  const url = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const { keys, tills, signedPayload } = config;
  log({
    level: 'info',
    msg: 'relay_started',
    url,
    lastSeq: eventLog.lastSeq(),
    keys: keys.map((k) => k.publicId),
    tills: tills.length,
    signedPayload,
  });

  let closed: Promise<void> | null = null;
  function close(): Promise<void> {
    closing = true;
    closed ??= shutDown(server, store, receiver, log);
    return closed;
  }

  function setConfig(input: RelayConfig | RelayConfigInput): void {
    const next = parseRelayConfig(input, 'setConfig');
    config = next;
    hub.dropRevoked(new Set(next.tills.map((t) => t.tokenHash)));
    log({ level: 'info', msg: 'config_reloaded', keys: next.keys.map((k) => k.publicId), tills: next.tills.length });
  }

  return { url, close, setConfig, metrics };
}
