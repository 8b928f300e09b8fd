/**
 * The till core: everything the UI calls, in plain Node (no 'electron' import anywhere under
 * electron/core). The Electron shell and the browser-test bridge both drive it through `invoke`
 * and `on`, with the one contract in shared/ipc/contract.ts.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeZodError } from '../../shared/zod-error.js';
import {
  ipcContract,
  ipcEvents,
  type IpcChannel,
  type IpcEvent,
  type IpcEventPayload,
  type IpcResponse,
  type RelayState,
} from '../../shared/ipc/contract.js';
import type { CoreContext } from './core-context.js';
import { openDatabase } from './database.js';
import { startEmbedded, type EmbeddedClock, type EmbeddedServices } from './embedded.js';
import { CoreError, toPlainError } from './errors.js';
import { createHandlers } from './handlers.js';
import { History } from './history.js';
import { createLogger } from './logger.js';
import { AuditLog } from './audit-log.js';
import { createPeopleHandlers } from './people-handlers.js';
import { PinGuard } from './pin-guard.js';
import { SignIn } from './sign-in.js';
import { adoptLegacyOwnerPin, forbiddenMessage, PASSIVE_CHANNELS } from './sign-in-setup.js';
import { StaffRepo } from './staff-repo.js';
import { mayCall } from '../../shared/ipc/roles.js';
import { PaymentEngine } from './payment-engine.js';
import { PaymentsRepo } from './payments-repo.js';
import { PrintService, type SystemPrinter } from './printing/print-service.js';
import { RelayClient } from './relay-client.js';
import { createKeychainStore, keychainServiceName, type SecretStore } from './secret-store.js';
import { createServiceClient } from './service-client.js';
import { SettingsStore, type EnvironmentConfig } from './settings-store.js';
import { Takings } from './takings.js';
import { TransactionsStore } from './transactions-store.js';
import { ENVIRONMENTS, type Environment } from '../../shared/domain.js';
import { lockDataDir } from '../../shared/data-lock.js';

export type { SecretStore } from './secret-store.js';
export type { SystemPrinter } from './printing/print-service.js';
export { createKeychainStore, createMemorySecretStore, keychainServiceName } from './secret-store.js';

export type TillCoreOptions = {
  /** SQLite, logs and non-secret settings (JSON) live here. */
  dataDir: string;
  /** Default: the OS keychain (Secret Service pinned on Linux), service name derived from dataDir. */
  secretStore?: SecretStore;
  /** Default true: TEST runs on a sandbox simulator and relay the core starts on loopback. */
  embedded?: boolean;
  tillName?: string;
  timeZone?: string;
  now?: () => number;
  http?: { connectTimeoutMs?: number; responseTimeoutMs?: number };
  log?: (line: Record<string, unknown>) => void;
  /** Electron passes the path of better_sqlite3.node built for Electron. */
  nativeBinding?: string;
  /** Delay before each retry of an uncertain payment (the last repeats). Default 2 s, 5 s, 15 s, 30 s, 60 s. */
  retryDelaysMs?: number[];
  relay?: { initialBackoffMs?: number; maxBackoffMs?: number; heartbeatTimeoutMs?: number };
  /** How long a signed-in person stays signed in without use. Default: the setting (5 minutes). */
  idleLockMs?: number;
  /** Time scale of the embedded simulator (tests). Default 1. */
  embeddedTimeScale?: number;
  /** Clock of the embedded simulator (tests hold it to keep a customer's answer back). Default: the real clock. */
  embeddedClock?: EmbeddedClock;
  version?: string;
  /** The operating system's printers: the Electron shell passes them; absent in plain Node. */
  systemPrinter?: SystemPrinter;
};

function openOrUnlock<T>(open: () => T, unlock: () => void): T {
  try {
    return open();
  } catch (error) {
    unlock();
    throw error;
  }
}

export type TillCore = {
  invoke<C extends IpcChannel>(channel: C, payload: unknown): Promise<IpcResponse<C>>;
  on<E extends IpcEvent>(event: E, listener: (p: IpcEventPayload<E>) => void): () => void;
  close(): Promise<void>;
};

export async function createTillCore(options: TillCoreOptions): Promise<TillCore> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const now = options.now ?? Date.now;
  const log = createLogger({ dataDir, sink: options.log, now });
  const listeners = new Map<IpcEvent, Set<(payload: never) => void>>();
  const emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => {
    for (const listener of listeners.get(event) ?? []) {
      try {
        (listener as (p: IpcEventPayload<E>) => void)(ipcEvents[event].parse(payload) as IpcEventPayload<E>);
      } catch (error) {
        log.error('event.listener_failed', { event, error });
      }
    }
  };

  const secrets = options.secretStore ?? createKeychainStore(keychainServiceName(dataDir));
  await secrets.get('probe'); // a missing keychain is a clear error now, not at the first sale
  const settings = new SettingsStore(dataDir, secrets, {
    tillName: options.tillName ?? 'Till 1',
    timeZone: options.timeZone ?? 'Africa/Accra',
  });
  // One till per data folder; the terminal's reset-owner-pin refuses to run while it is held.
  const unlockDataDir = lockDataDir(dataDir, 'till');
  const db = openOrUnlock(() => openDatabase(join(dataDir, 'till.db'), { nativeBinding: options.nativeBinding }), unlockDataDir);
  const repo = new PaymentsRepo(db);
  const transactions = new TransactionsStore(db, settings.settings.timeZone);
  const client = createServiceClient({
    connectTimeoutMs: options.http?.connectTimeoutMs ?? 5_000,
    responseTimeoutMs: options.http?.responseTimeoutMs ?? 15_000,
  });

  let embedded: EmbeddedServices | null = null;
  const useEmbedded = (environment: Environment) =>
    options.embedded !== false && environment === 'test' && settings.settings.test.baseUrl === '';
  const ensureEmbedded = async () => {
    if (embedded || !useEmbedded('test')) return;
    embedded = await startEmbedded({
      dataDir,
      secrets,
      log,
      preferredPorts: settings.settings.embeddedPorts,
      timeScale: options.embeddedTimeScale,
      clock: options.embeddedClock,
    });
    settings.update({ embeddedPorts: embedded.ports });
    log.info('embedded.started', { baseUrl: embedded.baseUrl, relayUrl: embedded.relayUrl });
  };

  const configs = new Map<Environment, EnvironmentConfig>();
  const configFor = async (environment: Environment): Promise<EnvironmentConfig> => {
    if (useEmbedded(environment) && embedded) {
      const e = embedded;
      return {
        environment,
        embedded: true,
        baseUrl: e.baseUrl,
        merchantId: e.merchantId,
        publicKeyId: e.publicKeyId,
        secretKey: e.secretKey,
        relayUrl: e.relayUrl,
        relayToken: e.relayToken,
        callbackUrl: `${e.relayUrl}/v1/webhooks`,
      };
    }
    let config = configs.get(environment);
    if (!config) {
      config = await settings.storedConfig(environment);
      log.registerSecret(config.secretKey);
      log.registerSecret(config.relayToken);
      configs.set(environment, config);
    }
    return config;
  };

  const engine = new PaymentEngine({
    db,
    repo,
    transactions,
    client,
    log,
    now,
    tillId: () => settings.settings.tillId,
    credentialsFor: async (environment) => {
      const c = await configFor(environment);
      if (!c.baseUrl || !c.merchantId || !c.secretKey || !c.relayUrl) return null;
      return { baseUrl: c.baseUrl, merchantId: c.merchantId, secretKey: c.secretKey, callbackUrl: c.callbackUrl };
    },
    emit: (view) => emit('payment:updated', view),
    retryDelaysMs: options.retryDelaysMs ?? [2_000, 5_000, 15_000, 30_000, 60_000],
  });

  const relays = new Map<Environment, RelayClient>();
  const relayStates = new Map<Environment, RelayState>();
  const startRelay = async (environment: Environment) => {
    await relays.get(environment)?.stop();
    relays.delete(environment);
    const config = await configFor(environment);
    if (!config.relayUrl || !config.relayToken || closed) {
      relayStates.set(environment, 'offline');
      return;
    }
    const client = new RelayClient({
      environment,
      relayUrl: config.relayUrl,
      token: config.relayToken,
      db,
      log,
      onEvent: (event) => engine.applyTransaction(environment, event.transaction, event.seq),
      onState: (state) => {
        relayStates.set(environment, state);
        emit('relay:state', { state, environment });
      },
      ...options.relay,
    });
    relays.set(environment, client);
    client.start();
  };

  const staff = new StaffRepo(db);
  adoptLegacyOwnerPin(settings, staff, now);
  const guard = new PinGuard(db, now);
  const audit = new AuditLog(db, now);
  const signIn = new SignIn({
    staff,
    guard,
    audit,
    now,
    idleMs: () => options.idleLockMs ?? settings.settings.idleLockMinutes * 60_000,
    onChange: (reason, person) => {
      emit('session:changed', { signedIn: person, reason });
      const until = signIn.until();
      emit('owner:changed', { unlocked: person?.role === 'owner', until: until === null ? null : new Date(until).toISOString() });
    },
  });

  let closed = false;
  const context: CoreContext = {
    settings,
    staff,
    signIn,
    guard,
    audit,
    engine,
    repo,
    transactions,
    takings: new Takings(db, now),
    history: new History(db, now),
    client,
    log,
    now,
    printing: new PrintService({ settings: () => settings.settings.receipt, systemPrinter: options.systemPrinter ?? null, log }),
    version: options.version ?? '0.1.0',
    configFor,
    async saveEnvironment(environment, clean) {
      await settings.saveEnvironment(environment, clean);
      configs.delete(environment);
      log.info('settings.saved', { environment });
      if (environment === 'test') await ensureEmbedded();
      await startRelay(environment);
      engine.retryHeld(environment);
    },
    setActive(environment) {
      if (settings.settings.active === environment) return;
      settings.update({ active: environment });
      log.info('settings.environment', { environment });
      emit('app:changed', { environment });
    },
    relayState: (environment) => relayStates.get(environment) ?? 'offline',
  };
  const handlers = { ...createHandlers(context), ...createPeopleHandlers(context) };

  try {
    await ensureEmbedded();
    await Promise.all(ENVIRONMENTS.map((environment) => startRelay(environment)));
  } catch (error) {
    await Promise.allSettled([...relays.values()].map((r) => r.stop()));
    await (embedded as EmbeddedServices | null)?.close();
    await client.close();
    db.close();
    unlockDataDir();
    throw error;
  }
  engine.resume();
  log.info('core.started', { tillId: settings.settings.tillId, active: settings.settings.active, embedded: embedded !== null });

  return {
    async invoke<C extends IpcChannel>(channel: C, payload: unknown): Promise<IpcResponse<C>> {
      try {
        if (closed) throw new CoreError('CLOSED', 'The till is shutting down.');
        const definition = Object.hasOwn(ipcContract, channel) ? ipcContract[channel] : undefined;
        if (!definition) throw new CoreError('UNKNOWN_CHANNEL', `Unknown call ${String(channel).slice(0, 64)}.`);
        // Who may call is checked first: a refused caller's payload is not even read.
        const caller = signIn.caller();
        if (!mayCall(caller, channel)) throw new CoreError('FORBIDDEN', forbiddenMessage(caller, channel));
        if (!PASSIVE_CHANNELS.has(channel)) signIn.touch();
        const request = definition.request.safeParse(payload ?? {});
        if (!request.success) throw new CoreError('INVALID_REQUEST', describeZodError(request.error));
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        const result = await handler(request.data);
        const response = definition.response.safeParse(result);
        if (!response.success) {
          log.error('ipc.bad_response', { channel, issue: describeZodError(response.error) });
          throw new CoreError('INTERNAL', 'The till produced an answer it could not check. Try again.');
        }
        return response.data as IpcResponse<C>;
      } catch (error) {
        if (!(error instanceof CoreError)) log.error('ipc.failed', { channel, error });
        const plain = toPlainError(error);
        throw error instanceof CoreError && error.field ? { ...plain, field: error.field } : plain;
      }
    },
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
    async close() {
      if (closed) return;
      closed = true;
      signIn.close();
      await engine.close();
      await Promise.allSettled([...relays.values()].map((r) => r.stop()));
      await (embedded as EmbeddedServices | null)?.close();
      await client.close();
      db.close();
      unlockDataDir();
      log.info('core.stopped', {});
    },
  };
}
