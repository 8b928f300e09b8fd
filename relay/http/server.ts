/**
 * The companion relay: receives the service's signed webhooks, keeps them durably, pushes final
 * results to tills. `startRelay` opens the store, wires each caller's folder to it, listens (the public
 * port's routes: router.ts; the admin API on its own port when asked) and shuts down in order. The
 * CLI's `serve` and the embedded till start the relay through it. The store is SQLite (one merchant,
 * `dataDir`) or PostgreSQL (many merchants, several instances, `databaseUrl`); the HTTP interface is
 * the same with either, and what differs is asked of the store's interface, never of its type.
 */
import { createServer, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendError } from '../../shared/http-util.js';
import { ensurePrivateDir } from '../../shared/sqlite-file.js';
import {
  parseRelayConfig,
  defaultLog,
  RelayMetrics,
  showLimits,
  WarningSummary,
  type RelayConfig,
  type RelayConfigInput,
  type LogFn,
} from '../ops/index.js';
import { PgStore, MasterKeyError, type PgStoreOptions } from '../store/pg/index.js';
import { SqliteStore } from '../store/sqlite/index.js';
import { DEFAULT_RETENTION_DAYS, Retention, type RelayStore, type StoreKind } from '../store/index.js';
import { startAdminListener, type AdminListener, type AdminListenerOptions } from './admin/index.js';
import { createOwnerView, type OwnerView } from './owner/index.js';
import { createTillApi, EventStreams, publishCommits, ReadBudget, ReadShares } from './tills/index.js';
import { createWebhookReceiver } from './webhooks/index.js';
import { guardConnections } from './connection-guard.js';
import type { RelayOptions, RunningRelay } from './relay-types.js';
import { requestIdOf } from './request-id.js';
import { createRouter, type RouteDeps } from './router.js';
import { watchDatabase } from './database-watch.js';
import { metricsPage } from './metrics-page.js';

export type { RelayConfig } from '../ops/index.js';

export type { RelayOptions, RunningRelay } from './relay-types.js';

async function openStore(options: RelayOptions, config: RelayConfig, log: LogFn, reads: PgStoreOptions['reads']): Promise<RelayStore> {
  if (options.databaseUrl) {
    if (!options.masterKey) throw new MasterKeyError('startRelay: a PostgreSQL store needs options.masterKey (RELAY_MASTER_KEY)');
    return PgStore.open({
      databaseUrl: options.databaseUrl,
      masterKey: options.masterKey,
      previousMasterKeys: options.previousMasterKeys,
      maxBatch: config.groupCommitMaxBatch,
      catchUpMs: options.catchUpMs,
      ...options.pg,
      reads,
      log,
    });
  }
  if (!options.dataDir) throw new Error('startRelay: give dataDir (SQLite) or databaseUrl (PostgreSQL)');
  const tooOpen = ensurePrivateDir(options.dataDir);
  if (tooOpen)
    log({ level: 'warn', msg: 'data_dir_too_open', dataDir: options.dataDir, mode: tooOpen, fix: `chmod 700 ${options.dataDir}` });
  return new SqliteStore({ dataDir: options.dataDir, config, log });
}

/** The tills' streams, fed by the store: this instance's commits, other instances' (PostgreSQL), auth changes. */
function connectStreams(
  store: RelayStore,
  config: RelayConfig,
  metrics: RelayMetrics,
  log: LogFn,
  owner: OwnerView,
  budget: ReadBudget,
): EventStreams {
  const perMerchantMetrics = store.tenancy.merchants === 'many';
  const streams = new EventStreams(store, metrics, {
    budget,
    heartbeatMs: config.heartbeatSeconds * 1000,
    maxClients: config.maxSseClients,
    maxPerMerchant: config.maxStreamsPerMerchant,
    maxPerToken: config.maxStreamsPerToken,
    stallMs: config.streamStallSeconds * 1000,
    log,
    perMerchantMetrics,
  });
  store.watch(
    {
      committed: owner.onCommitted(publishCommits({ metrics, streams, log, perMerchantMetrics })),
      advanced: (merchantId, lastSeq) => {
        streams.advanced(merchantId, lastSeq);
        owner.streams.advanced(merchantId);
      },
      // A revoked token, or a merchant's log given a new identity (an import): its streams end, the tills reconnect.
      // A suspended merchant's streams end too (its tills are refused with 403 MERCHANT_SUSPENDED until it is resumed).
      authChanged: () =>
        streams.dropInvalid((till, logId) => {
          const now = store.findTill(till.tokenHash);
          return now?.merchantId === till.merchantId && !now.suspended && store.logId(till.merchantId) === logId;
        }),
    },
    () => [...streams.merchants(), ...owner.streams.merchants()],
  );
  return streams;
}

/** Node's limits on slow and idle clients (its defaults: 60 s for headers, 300 s for a request). */
function serverOptions(config: RelayConfig): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // How often Node looks for connections past those limits (its default: every 30 s).
    connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs / 2),
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
async function shutDown(server: Server, deps: RouteDeps, log: LogFn): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  deps.streams.closeAll();
  deps.owner.streams.closeAll();
  server.closeIdleConnections();
  // Finish the deliveries in flight: being read, verified or committed.
  await deps.receiver.whenIdle(10_000);
  // Let the last answers flush (their connections then go idle and close); force after 1 s.
  server.closeIdleConnections();
  await Promise.race([stopped, new Promise<void>((resolve) => setTimeout(resolve, 1_000).unref())]);
  server.closeAllConnections();
  await stopped;
  await deps.retention.stop();
  await deps.store.close();
  log({ level: 'info', msg: 'relay_stopped' });
}

/** One line saying what started: where, which store, and (SQLite) which keys and tills. */
function logStarted(
  log: LogFn,
  o: { url: string; adminUrl?: string; kind: StoreKind; store: RelayStore; config: RelayConfig; retentionDays: number },
): void {
  const { config } = o;
  const { tenancy } = o.store;
  log({
    level: 'info',
    msg: 'relay_started',
    url: o.url,
    ...(o.adminUrl ? { adminUrl: o.adminUrl } : {}),
    store: o.kind,
    ...(tenancy.merchants === 'one'
      ? { lastSeq: tenancy.lastSeq(), keys: config.keys.map((k) => k.publicId), tills: config.tills.length }
      : { merchants: tenancy.count(), masterKey: tenancy.masterKeyInUse() }),
    signedPayload: config.signedPayload,
    retentionDays: o.retentionDays,
  });
}

/** The gauges known at start: the log's last sequence (one merchant), whether a previous master key is in use (many). */
function setStartGauges(metrics: RelayMetrics, tenancy: RelayStore['tenancy']): void {
  if (tenancy.merchants === 'one') metrics.lastSeq.set(tenancy.lastSeq());
  else metrics.masterKeyPrevious.set(tenancy.masterKeyInUse() === 'previous' ? 1 : 0);
}

/** The service's and the tills' routes, each merchant's and token's shares counted on this instance. */
function createCallers(deps: {
  store: RelayStore;
  streams: EventStreams;
  getConfig: () => RelayConfig;
  metrics: RelayMetrics;
  now: () => number;
  log: LogFn;
  warnings: WarningSummary;
  budget: ReadBudget;
}) {
  const { store, getConfig, metrics, now } = deps;
  const perMerchantMetrics = store.tenancy.merchants === 'many';
  const findKey = (id: string) => store.findKey(id);
  const receiver = createWebhookReceiver({ ...deps, findKey, perMerchantMetrics, deliveryShares: perMerchantMetrics });
  const reads = new ReadShares(getConfig, metrics, now, perMerchantMetrics, deps.budget);
  return { receiver, handleTill: createTillApi({ ...deps, reads, perMerchantMetrics }) };
}

/** What the owner's sign-in needs of the per-client limits (client-limits.ts), read from the current config. */
function clientLimitsOf(getConfig: () => RelayConfig) {
  return {
    trustedProxies: () => getConfig().trustedProxies,
    bodyTimeoutMs: () => Math.min(getConfig().unauthenticatedBodyTimeoutMs, getConfig().requestTimeoutMs),
  };
}

/** One client address's share of the connections, read from the current config. */
function connectionShareOf(getConfig: () => RelayConfig) {
  return { max: () => getConfig().maxConnectionsPerClient, trusted: () => getConfig().trustedProxies };
}

/** The admin listener (the admin API and /metrics) when `adminPort` is given; if it cannot listen, `undo` closes the rest. */
async function openAdminListener(
  options: RelayOptions,
  o: Omit<AdminListenerOptions, 'port' | 'host'> & { undo: () => Promise<void> },
): Promise<AdminListener | undefined> {
  if (options.adminPort === undefined) return undefined;
  return startAdminListener({ ...o, port: options.adminPort, host: options.adminHost ?? '127.0.0.1' }).catch(async (err: unknown) => {
    await o.undo();
    throw err;
  });
}

/** PostgreSQL: the gate on the tills' reads, as the instance's settings set it (on reload too), shown in /metrics. */
function databaseReads(getConfig: () => RelayConfig, metrics: RelayMetrics): PgStoreOptions['reads'] {
  return {
    max: () => getConfig().maxDatabaseReads,
    perMerchant: () => getConfig().maxDatabaseReadsPerMerchant,
    changed: (running, waiting) => {
      metrics.databaseReads.set(running, { state: 'running' });
      metrics.databaseReads.set(waiting, { state: 'waiting' });
    },
  };
}

export async function startRelay(options: RelayOptions): Promise<RunningRelay> {
  const log = options.log ?? defaultLog;
  const now = options.now ?? Date.now;
  const kind: StoreKind = options.databaseUrl ? 'postgres' : 'sqlite';
  let config: RelayConfig = parseRelayConfig(options.config, 'startRelay options.config', {}, kind);
  const getConfig = () => config;
  const metrics = new RelayMetrics();
  const store = await openStore(options, config, log, databaseReads(getConfig, metrics));
  const { tenancy } = store;
  setStartGauges(metrics, tenancy);
  showLimits(metrics, config);
  const warnings = new WarningSummary(log, () => getConfig().warningSummarySeconds * 1000);
  const owner = createOwnerView({ store, log, now, ...clientLimitsOf(getConfig), warnings, getConfig, metrics });
  // Each merchant's events read back a second, spent by its tills' pages and its streams alike.
  const budget = new ReadBudget(getConfig, metrics, now, tenancy.merchants === 'many');
  const streams = connectStreams(store, config, metrics, log, owner, budget);
  const { receiver, handleTill } = createCallers({ store, streams, getConfig, metrics, now, log, warnings, budget });
  const databaseCheck = watchDatabase(store, metrics, () => closing);
  let closing = false;
  const retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const retention = new Retention(store, { days: retentionDays, intervalMs: options.pruneIntervalMs, now, log });
  const deps: RouteDeps = { store, streams, metrics, receiver, handleTill, owner, isClosing: () => closing, retention };
  const route = createRouter(deps);

  const server = createServer(serverOptions(config), (req, res) => {
    // No answer of the relay is ever to be read as another type than it says (a JSON error as HTML).
    res.setHeader('x-content-type-options', 'nosniff');
    try {
      route(req, res);
    } catch (err) {
      const requestId = requestIdOf(req);
      log({ level: 'error', msg: 'request_failed', requestId, path: req.url?.split('?')[0], error: (err as Error).message });
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
      else res.destroy();
    }
  });
  server.maxRequestsPerSocket = config.maxRequestsPerSocket;
  guardConnections(server, config.maxConnections, metrics, connectionShareOf(getConfig));
  let url: string;
  try {
    url = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (err) {
    clearInterval(databaseCheck);
    streams.closeAll();
    owner.streams.closeAll();
    await store.close();
    throw err;
  }
  const adminDeps = { store, streams, metrics, metricsPage: metricsPage(store, streams, metrics), warnings, log };
  const undo = () => Promise.all([server.close(), streams.closeAll(), store.close()]).then(() => undefined);
  const admin = await openAdminListener(options, { ...adminDeps, isClosing: () => closing, undo });
  logStarted(log, { url, adminUrl: admin?.url, kind, store, config, retentionDays });
  retention.start();

  let closed: Promise<void> | null = null;
  function close(): Promise<void> {
    closing = true;
    clearInterval(databaseCheck);
    closed ??= Promise.all([admin?.close(), shutDown(server, deps, log)])
      .then(() => undefined)
      .finally(() => warnings.flush());
    return closed;
  }

  function setConfig(input: RelayConfig | RelayConfigInput): void {
    config = parseRelayConfig(input, 'setConfig', {}, kind);
    showLimits(metrics, config);
    if (tenancy.merchants === 'one') tenancy.setConfig(config);
    const detail = tenancy.merchants === 'one' ? { keys: config.keys.map((k) => k.publicId), tills: config.tills.length } : {};
    log({ level: 'info', msg: 'config_reloaded', ...detail });
  }

  return { url, ...(admin ? { adminUrl: admin.url } : {}), store: kind, close, setConfig, prune: () => retention.runPass(), metrics };
}
