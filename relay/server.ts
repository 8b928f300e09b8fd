/**
 * The companion relay: receives the service's signed webhooks, keeps them durably, pushes
 * final results to tills. `startRelay` is the programmatic entry; relay/cli.ts wraps it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENVIRONMENTS } from '../shared/domain.js';
import { parseRelayConfig, type RelayConfig, type RelayConfigInput } from './config.js';
import { openRelayDatabase } from './db.js';
import { EventLog } from './event-log.js';
import { GroupCommitter } from './group-commit.js';
import { defaultLog, sendError, sendJson, type LogFn } from './http-util.js';
import { RelayMetrics } from './metrics.js';
import { SseHub, type PublishedEvent } from './sse-hub.js';
import { createTillApi } from './till-api.js';
import { createWebhookReceiver } from './webhook-receiver.js';

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
  log?: (line: Record<string, unknown>) => void;
};

export type RunningRelay = {
  url: string;
  /** Stops accepting, finishes in-flight requests, ends SSE streams, closes the database. */
  close(): Promise<void>;
  /** Swaps in a new config (keys, tokens, limits; validated); streams of revoked tokens end. */
  setConfig(config: RelayConfig | RelayConfigInput): void;
  metrics: RelayMetrics;
};

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const log: LogFn = options.log ?? defaultLog;
  const now = options.now ?? Date.now;
  let config: RelayConfig = parseRelayConfig(options.config, 'startRelay options.config');
  const getConfig = () => config;

  const db = openRelayDatabase(options.dataDir);
  const eventLog = new EventLog(db);
  const metrics = new RelayMetrics();
  metrics.lastSeq.set(eventLog.lastSeq());
  const hub = new SseHub(eventLog, metrics, {
    heartbeatMs: config.heartbeatSeconds * 1000,
    maxClients: config.maxSseClients,
    logLine: log,
  });
  const acceptedBy = { test: 0, live: 0 };
  const duplicatesBy = { test: 0, live: 0 };
  let committer: GroupCommitter;
  try {
    committer = new GroupCommitter({
      dataDir: options.dataDir,
      busyTimeoutMs: config.busyTimeoutMs,
      maxBatch: config.groupCommitMaxBatch,
      windowMs: config.groupCommitWindowMs,
      log,
      onCommit(outcomes, commitSize) {
        if (commitSize > 0) metrics.commitBatchSize.observe(commitSize);
        const published: PublishedEvent[] = [];
        const accepted: string[] = [];
        const duplicates: string[] = [];
        for (const { delivery, outcome } of outcomes) {
          if (outcome.kind === 'accepted') {
            acceptedBy[delivery.environment]++;
            published.push({ seq: outcome.seq, environment: delivery.environment, json: outcome.json, arrivedAt: delivery.arrivedAt });
            accepted.push(delivery.reference);
          } else if (outcome.kind === 'duplicate') {
            duplicatesBy[delivery.environment]++;
            duplicates.push(delivery.reference);
          }
        }
        // Counted once per environment per commit rather than per delivery.
        for (const environment of ENVIRONMENTS) {
          if (acceptedBy[environment] > 0) metrics.accepted.inc({ environment }, acceptedBy[environment]);
          if (duplicatesBy[environment] > 0) metrics.duplicates.inc({ environment }, duplicatesBy[environment]);
          acceptedBy[environment] = 0;
          duplicatesBy[environment] = 0;
        }
        // One connection commits in order, so the sequence numbers are already ascending.
        const first = published[0];
        const last = published[published.length - 1];
        if (last) metrics.lastSeq.set(last.seq);
        hub.publish(published);
        // One line per commit: references only (never customer data).
        if (accepted.length || duplicates.length) {
          log({ level: 'info', msg: 'webhooks_committed', seqFrom: first?.seq, seqTo: last?.seq, accepted, duplicates });
        }
      },
    });
  } catch (err) {
    hub.closeAll();
    db.close();
    throw err;
  }
  const receiver = createWebhookReceiver({ getConfig, committer, metrics, now, log });
  const handleTill = createTillApi({ getConfig, eventLog, hub, metrics, log });

  let closing = false;

  function webhook(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'POST') return sendError(res, 405, 'VALIDATION_ERROR', 'Only POST is allowed here', { allow: 'POST' });
    if (closing)
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down; retry later', { connection: 'close', 'retry-after': '5' });
    receiver.handle(req, res);
  }

  function route(req: IncomingMessage, res: ServerResponse): void {
    // The hot path (the service's deliveries) skips URL parsing.
    if (req.url === '/v1/webhooks') return webhook(req, res);
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    if (url.pathname === '/v1/webhooks') return webhook(req, res);
    if (url.pathname === '/healthz' && req.method === 'GET') {
      const lastSeq = eventLog.lastSeq();
      return sendJson(res, closing ? 503 : 200, { ok: !closing, lastSeq, sseClients: hub.size });
    }
    if (url.pathname === '/metrics' && req.method === 'GET') {
      const text = metrics.render();
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' });
      res.end(text);
      return;
    }
    if (closing && url.pathname === '/v1/events') {
      return sendError(res, 503, 'INTERNAL', 'The relay is shutting down', { 'retry-after': '2' });
    }
    if (handleTill(req, res, url)) return;
    sendError(res, 404, 'NOT_FOUND', 'No such endpoint');
  }

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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log({
    level: 'info',
    msg: 'relay_started',
    url,
    lastSeq: eventLog.lastSeq(),
    keys: config.keys.map((k) => k.publicId),
    tills: config.tills.length,
    signedPayload: config.signedPayload,
  });

  let closed: Promise<void> | null = null;
  async function close(): Promise<void> {
    if (closed) return closed;
    closing = true;
    closed = (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      hub.closeAll();
      server.closeIdleConnections();
      // Finish the deliveries in flight: being read, verified or committed.
      await receiver.whenIdle(10_000);
      await committer.close();
      // Let the last answers flush (their connections then go idle and close); force after 1 s.
      server.closeIdleConnections();
      await Promise.race([stopped, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
      server.closeAllConnections();
      await stopped;
      db.close();
      log({ level: 'info', msg: 'relay_stopped' });
    })();
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
