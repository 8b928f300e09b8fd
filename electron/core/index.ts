/**
 * The till core: everything the UI calls, in plain Node (no 'electron' import anywhere under
 * electron/core). Built here from its parts: the event hub (events to the screens), the service
 * configs (saved settings or the embedded simulator and relay), the payment engine, the relay
 * connections, sign-in, and the dispatcher that runs each IPC channel's handler (the handlers wing,
 * handlers/: one map per domain) after the roles table allows the caller. The Electron shell and the
 * browser-test bridge both call `answer` (one envelope) and `on`, with the one contract in shared/ipc/contract.ts.
 */
import { join, resolve } from 'node:path';
import { lockDataDir } from '../../shared/data-lock.js';
import type { IpcChannel, IpcEvent, IpcEventPayload, IpcResponse } from '../../shared/ipc/contract.js';
import type { IpcEnvelope } from '../../shared/ipc/channels.js';
import { BROWSER_MODE_NO_LIVE, type Shell } from '../../shared/shell.js';
import { mayCall } from '../../shared/ipc/roles.js';
import { Alerts } from './alerts/index.js';
import { AuditLog } from './people/index.js';
import type { CoreContext } from './core-context.js';
import { openDatabase, type Db } from './storage/index.js';
import { DayClose } from './day/index.js';
import { createDispatcher, type Dispatcher } from './dispatcher.js';
import type { EmbeddedClock } from './embedded.js';
import { CoreError } from './errors.js';
import { createEventHub, type EventHub } from './event-hub.js';
import { createHandlers } from './handlers/index.js';
import { History } from './history/index.js';
import { createLogger, type Logger } from './logger.js';
import { ensurePrivateDir } from '../../shared/sqlite-file.js';
import { PaymentEngine } from './payments/index.js';
import { LeftOpen, PaymentsRepo } from './payments/index.js';
import { PinGuard } from './people/index.js';
import { PrintService, type SystemPrinter } from './printing/index.js';
import { appUpdates, type CoreUpdateOptions } from './updates/index.js';
import { RelayConnections, type RelayTuning } from './relay-link/index.js';
import { createKeychainStore, keychainServiceName, type SecretStore } from './storage/index.js';
import { createServiceClient, type ServiceClient } from './payments/index.js';
import { ServiceConfigs } from './settings/index.js';
import { SettingsStore } from './settings/index.js';
import { shiftFollower, Shifts } from './shifts/index.js';
import { SignIn } from './people/index.js';
import { adoptLegacyOwnerPin, forbiddenMessage, PASSIVE_CHANNELS } from './people/index.js';
import { StaffRepo } from './people/index.js';
import { Takings } from './takings/index.js';
import { TransactionsStore } from './takings/index.js';

export type { SecretStore } from './storage/index.js';
export type { SystemPrinter } from './printing/index.js';
export { createKeychainStore, createMemorySecretStore, keychainServiceName } from './storage/index.js';

export type TillCoreOptions = CoreUpdateOptions & {
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
  /** How long after Enter an unacknowledged payment may still be sent. Default: one minute (payments/send-deadline.ts). */
  sendDeadlineMs?: number;
  relay?: RelayTuning;
  /** How long a signed-in person stays signed in without use. Default: the setting (5 minutes). */
  idleLockMs?: number;
  /** Time scale of the embedded simulator (tests). Default 1. */
  embeddedTimeScale?: number;
  /** Clock of the embedded simulator (tests hold it to keep a customer's answer back). Default: the real clock. */
  embeddedClock?: EmbeddedClock;
  version?: string;
  /** The operating system's printers: the Electron shell passes them; absent in plain Node. */
  systemPrinter?: SystemPrinter;
  /** Which shell runs the core. Default 'desktop'; 'browser' refuses LIVE (shared/shell.ts). */
  shell?: Shell;
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
  /** A call from inside the process (tests): the checked answer, or a thrown `{ code, message, field? }`. */
  invoke<C extends IpcChannel>(channel: C, payload: unknown): Promise<IpcResponse<C>>;
  /** A call from the renderer (Electron IPC, the test bridge): the envelope that crosses back, never a throw. */
  answer(channel: string, payload: unknown): Promise<IpcEnvelope>;
  on<E extends IpcEvent>(event: E, listener: (p: IpcEventPayload<E>) => void): () => void;
  close(): Promise<void>;
};

type Base = {
  options: TillCoreOptions;
  dataDir: string;
  now: () => number;
  log: Logger;
  events: EventHub;
  secrets: SecretStore;
  settings: SettingsStore;
  db: Db;
  closed: () => boolean;
};

type Parts = {
  client: ServiceClient;
  configs: ServiceConfigs;
  engine: PaymentEngine;
  relays: RelayConnections;
  signIn: SignIn;
  dispatcher: Dispatcher;
};

export async function createTillCore(options: TillCoreOptions): Promise<TillCore> {
  const dataDir = resolve(options.dataDir);
  const tooOpen = ensurePrivateDir(dataDir);
  const now = options.now ?? Date.now;
  const log = createLogger({ dataDir, sink: options.log, now });
  // Customers' numbers are in it: say so when other local users may read the folder.
  if (tooOpen) log.warn('core.data_dir_too_open', { dataDir, mode: tooOpen, fix: `chmod 700 ${dataDir}` });
  const events = createEventHub(log);
  const secrets = options.secretStore ?? createKeychainStore(keychainServiceName(dataDir));
  await secrets.get('probe'); // a missing keychain is a clear error now, not at the first sale
  const settings = new SettingsStore(dataDir, secrets, {
    tillName: options.tillName ?? 'Till 1',
    timeZone: options.timeZone ?? 'Africa/Accra',
  });
  // One till per data folder; the terminal's reset-owner-pin refuses to run while it is held.
  // A till switched to LIVE in the desktop app does not open in browser mode (where LIVE is refused).
  if (options.shell === 'browser' && settings.settings.active === 'live') throw new Error(BROWSER_MODE_NO_LIVE);
  const unlockDataDir = lockDataDir(dataDir, 'till');
  const db = openOrUnlock(() => openDatabase(join(dataDir, 'till.db'), { nativeBinding: options.nativeBinding }), unlockDataDir);
  let closed = false;
  const parts = buildParts({ options, dataDir, now, log, events, secrets, settings, db, closed: () => closed });
  const stop = async () => {
    parts.signIn.close();
    await parts.engine.close();
    await parts.relays.close();
    await parts.configs.close();
    await parts.client.close();
    db.close();
    unlockDataDir();
  };
  try {
    await parts.configs.ensureEmbedded();
    await parts.relays.startAll();
  } catch (error) {
    await stop();
    throw error;
  }
  parts.engine.resume();
  log.info('core.started', { tillId: settings.settings.tillId, active: settings.settings.active, embedded: parts.configs.embeddedRunning });

  return {
    invoke: parts.dispatcher.invoke,
    answer: parts.dispatcher.answer,
    on: events.on,
    async close() {
      if (closed) return;
      closed = true;
      await stop();
      log.info('core.stopped', {});
    },
  };
}

/** The parts wired together; nothing runs until the caller starts the relays and resumes the engine. */
function buildParts(base: Base): Parts {
  const { options, dataDir, now, log, events, secrets, settings, db } = base;
  const repo = new PaymentsRepo(db);
  // Before anything can land: the relays' catch-up and the engine's resume run only after this.
  const leftOpen = new LeftOpen(repo);
  const transactions = new TransactionsStore(db, settings.settings.timeZone);
  const alerts = new Alerts(db, now, (open) => events.emit('alerts:changed', { open }));
  const client = createServiceClient({
    connectTimeoutMs: options.http?.connectTimeoutMs ?? 5_000,
    responseTimeoutMs: options.http?.responseTimeoutMs ?? 15_000,
  });
  const configs = new ServiceConfigs({
    dataDir,
    settings,
    secrets,
    log,
    embedded: options.embedded !== false,
    embeddedTimeScale: options.embeddedTimeScale,
    embeddedClock: options.embeddedClock,
  });
  const engine = new PaymentEngine({
    db,
    repo,
    transactions,
    alerts,
    client,
    log,
    now,
    tillId: () => settings.settings.tillId,
    tillName: () => settings.settings.tillName,
    credentialsFor: (environment) => configs.credentialsFor(environment),
    emit: (view) => events.emit('payment:updated', view),
    retryDelaysMs: options.retryDelaysMs ?? [2_000, 5_000, 15_000, 30_000, 60_000],
    sendDeadlineMs: options.sendDeadlineMs,
  });
  const relays = new RelayConnections({
    db,
    log,
    configFor: (environment) => configs.configFor(environment),
    onEvent: (environment, event) => engine.applyTransaction(environment, event.transaction, event.seq),
    onState: (environment, state) => events.emit('relay:state', { state, environment }),
    tuning: options.relay,
  });
  const context = coreContext(base, { repo, leftOpen, transactions, alerts, client, configs, engine, relays });
  const { signIn } = context;
  const dispatcher = createDispatcher({
    handlers: createHandlers(context),
    authorize: (channel) => {
      const caller = signIn.caller();
      if (!mayCall(caller, channel)) throw new CoreError('FORBIDDEN', forbiddenMessage(caller, channel));
      if (!PASSIVE_CHANNELS.has(channel)) signIn.touch();
    },
    log,
    closed: base.closed,
  });
  return { client, configs, engine, relays, signIn, dispatcher };
}

type Services = Pick<CoreContext, 'repo' | 'leftOpen' | 'transactions' | 'alerts' | 'client' | 'engine'> & {
  configs: ServiceConfigs;
  relays: RelayConnections;
};

/** What the handlers reach: the parts, the people of the till, and the steps that change an environment. */
function coreContext({ options, now, log, events, settings, db, closed }: Base, services: Services): CoreContext {
  const { repo, leftOpen, transactions, alerts, client, configs, engine, relays } = services;
  const staff = new StaffRepo(db);
  adoptLegacyOwnerPin(settings, staff, now);
  const audit = new AuditLog(db, now);
  const guard = new PinGuard(db, now);
  const shifts = new Shifts(db, now, () => settings.settings.active);
  const followShift = shiftFollower(staff, shifts, audit);
  const signIn: SignIn = new SignIn({
    staff,
    guard,
    audit,
    now,
    idleMs: () => options.idleLockMs ?? settings.settings.idleLockMinutes * 60_000,
    onChange: (reason, person, previous) => {
      followShift(reason, person, previous);
      events.emit('session:changed', { signedIn: person, reason });
      const until = signIn.until();
      events.emit('owner:changed', { unlocked: person?.role === 'owner', until: until === null ? null : new Date(until).toISOString() });
    },
  });
  return {
    db,
    settings,
    staff,
    signIn,
    guard,
    audit,
    shifts,
    dayClose: new DayClose(db, now, () => ({ id: settings.settings.tillId, name: settings.settings.tillName })),
    engine,
    repo,
    leftOpen,
    transactions,
    alerts,
    emitPayment: (view) => events.emit('payment:updated', view),
    takings: new Takings(db, now, () => ({ id: settings.settings.tillId, name: settings.settings.tillName })),
    history: new History(db, now),
    client,
    log,
    now,
    printing: new PrintService({ settings: () => settings.settings.receipt, systemPrinter: options.systemPrinter ?? null, log }),
    version: options.version ?? '0.1.0',
    shell: options.shell ?? 'desktop',
    updates: appUpdates(options.updater, options.version, (environment) => repo.open(environment).length, log, closed),
    configFor: (environment) => configs.configFor(environment),
    async saveEnvironment(environment, clean) {
      await settings.saveEnvironment(environment, clean);
      configs.forget(environment);
      log.info('settings.saved', { environment });
      if (environment === 'test') await configs.ensureEmbedded();
      await relays.start(environment);
      engine.retryHeld(environment);
    },
    setActive(environment) {
      if (settings.settings.active === environment) return;
      settings.update({ active: environment });
      log.info('settings.environment', { environment });
      events.emit('app:changed', { environment });
    },
    relayState: (environment) => relays.state(environment),
  };
}
