/**
 * The sandbox simulator of the payment-collection service: startSandbox() opens (or creates) a data dir,
 * makes sure the demo merchant exists, resumes pending prompts and deliveries, and serves the API (/v1),
 * the dashboard (/dashboard) on loopback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { realClock, type SandboxClock } from './clock.js';
import { openDb } from './db.js';
import { lockDataDir } from '../shared/data-lock.js';
import { SecretBox } from './secrets.js';
import { MerchantStore } from './merchants.js';
import { DELIVERY_TIMEOUT_MS, DeliveryEngine, type Sender } from './deliveries.js';
import { createHttpSender } from './http-sender.js';
import { Payments } from './payments.js';
import { handleApi } from './api-routes.js';
import { handleDashboard } from './dashboard-routes.js';
import { sendError } from '../shared/http-util.js';

export type { SandboxClock } from './clock.js';

export type SandboxOptions = {
  port?: number;
  host?: string;
  dataDir?: string;
  timeScale?: number;
  clock?: SandboxClock;
  signedPayload?: 'body' | 'timestamp.body';
  feeBasisPoints?: number;
  promptTimeoutMs?: number;
  /**
   * How long (clock milliseconds, not scaled) a webhook attempt waits for the receiver's answer.
   * Default: the spec's 15 s times timeScale, but never less than 1 s, so a fast time scale speeds up the
   * customer and the retry schedule without making a receiver's ordinary fsync or GC pause look like an outage.
   */
  deliveryTimeoutMs?: number;
  /**
   * 32 bytes that encrypt the keys' secrets at rest. When given, the simulator uses it and never writes
   * or reads `<dataDir>/master.key` (an embedding program keeps it somewhere safer, e.g. the OS keychain);
   * without it, `master.key` in the data dir is used (created on first start).
   */
  masterKey?: Buffer;
  log?: (line: Record<string, unknown>) => void;
};

export type SandboxHandle = {
  baseUrl: string;
  merchantId: string;
  keys: { test: { publicId: string; secret: string }; live: { publicId: string; secret: string } };
  close(): Promise<void>;
};

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function defaultLog(line: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

function validate(options: SandboxOptions): void {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) throw new Error(`The sandbox binds to loopback only (127.0.0.1, ::1, localhost), not ${host}`);
  const scale = options.timeScale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) throw new Error('timeScale must be a positive number');
  const bps = options.feeBasisPoints ?? 195;
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new Error('feeBasisPoints must be a whole number from 0 to 10000');
  const prompt = options.promptTimeoutMs ?? 60_000;
  if (!(prompt > 0) || !Number.isFinite(prompt)) throw new Error('promptTimeoutMs must be a positive number');
  const payload = options.signedPayload ?? 'body';
  if (payload !== 'body' && payload !== 'timestamp.body') throw new Error('signedPayload must be "body" or "timestamp.body"');
  const deliveryTimeout = options.deliveryTimeoutMs;
  if (deliveryTimeout !== undefined && (!(deliveryTimeout > 0) || !Number.isFinite(deliveryTimeout))) {
    throw new Error('deliveryTimeoutMs must be a positive number');
  }
  if (options.masterKey !== undefined) SecretBox.fromKey(options.masterKey); // throws a clear error on a wrong length
}

/** The spec's 15 s answer time-out, scaled, with a floor of 1 s (see SandboxOptions.deliveryTimeoutMs). */
export function defaultDeliveryTimeoutMs(timeScale: number): number {
  return Math.max(Math.round(DELIVERY_TIMEOUT_MS * timeScale), Math.min(DELIVERY_TIMEOUT_MS, 1000));
}

type Log = (line: Record<string, unknown>) => void;
type Store = { db: ReturnType<typeof openDb>; merchants: MerchantStore; demo: ReturnType<MerchantStore['ensureDemo']> };
type Services = Store & { deliveries: DeliveryEngine; payments: Payments };

/** The database and the merchants in it (the demo merchant created on first start); on failure nothing stays open. */
function openStore(dataDir: string, options: SandboxOptions, clock: SandboxClock, unlock: () => void): Store {
  let opened: ReturnType<typeof openDb> | undefined;
  try {
    opened = openDb(dataDir);
    const db = opened;
    const box = options.masterKey !== undefined ? SecretBox.fromKey(options.masterKey) : SecretBox.open(dataDir);
    const merchants = new MerchantStore(db, box, () => clock.now());
    return { db, merchants, demo: merchants.ensureDemo() };
  } catch (error) {
    opened?.close();
    unlock();
    throw error;
  }
}

function createEngines(store: Store, options: SandboxOptions, clock: SandboxClock, send: Sender, log: Log) {
  const timeScale = options.timeScale ?? 1;
  const deliveries = new DeliveryEngine({
    db: store.db,
    clock,
    timeScale,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? defaultDeliveryTimeoutMs(timeScale),
    signedPayload: options.signedPayload ?? 'body',
    secretOf: (publicId) => store.merchants.secretOf(publicId),
    send,
    log,
  });
  const payments = new Payments({
    db: store.db,
    clock,
    timeScale,
    feeBasisPoints: options.feeBasisPoints ?? 195,
    promptTimeoutMs: options.promptTimeoutMs ?? 60_000,
    deliveries,
    log,
  });
  return { deliveries, payments };
}

/** Sends a request to the API, the dashboard, the redirect to it or the health check; anything else is a 404. */
async function route(req: IncomingMessage, res: ServerResponse, services: Services, port: () => number): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://127.0.0.1:${port()}`);
  } catch {
    req.resume();
    return sendError(res, 400, 'VALIDATION_ERROR', 'Malformed request target', { connection: 'close' });
  }
  const { merchants, payments, deliveries, db } = services;
  if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
    return handleApi(req, res, url, { merchants, payments });
  }
  if (url.pathname === '/dashboard' || url.pathname.startsWith('/dashboard/')) {
    return handleDashboard(req, res, url, { merchants, payments, deliveries, db, port });
  }
  if (url.pathname === '/' && req.method === 'GET') {
    req.resume();
    res.writeHead(302, { location: '/dashboard' });
    res.end();
    return;
  }
  if (url.pathname === '/health') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
    return;
  }
  req.resume();
  sendError(res, 404, 'NOT_FOUND', `Nothing at ${url.pathname}`);
}

/** The HTTP server: every request logged with its status and time, a failing one answered 500 (or cut off). */
function createSandboxServer(services: Services, port: () => number, log: Log): Server {
  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log({
        msg: 'request',
        method: req.method,
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      });
    });
    route(req, res, services, port).catch((error: unknown) => {
      log({ level: 'error', msg: 'request_failed', error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error in the sandbox');
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  validate(options);
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? realClock;
  const baseLog = options.log ?? defaultLog;
  const log: Log = (line) => baseLog({ time: new Date(clock.now()).toISOString(), level: 'info', ...line });
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'momo-sandbox-'));
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const unlock = lockDataDir(dataDir);
  const store = openStore(dataDir, options, clock, unlock);
  const { db, demo } = store;
  const sender = createHttpSender();
  const services: Services = { ...store, ...createEngines(store, options, clock, sender.send, log) };
  const { payments, deliveries } = services;

  let port = 0;
  const server = createSandboxServer(services, () => port, log);
  try {
    await listen(server, options.port ?? 0, host);
  } catch (error) {
    db.close();
    unlock();
    await sender.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const urlHost = host === '::1' ? '[::1]' : host;
  const baseUrl = `http://${urlHost}:${port}`;

  payments.resumeAll();
  deliveries.resumeAll();
  log({ msg: 'sandbox_started', baseUrl, dataDir, timeScale: options.timeScale ?? 1, merchantId: demo.merchantId });

  let closed: Promise<void> | null = null;
  return {
    baseUrl,
    merchantId: demo.merchantId,
    keys: demo.keys,
    close() {
      closed ??= (async () => {
        payments.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await deliveries.close();
        await sender.close();
        db.close();
        unlock();
        log({ msg: 'sandbox_stopped' });
      })();
      return closed;
    },
  };
}
