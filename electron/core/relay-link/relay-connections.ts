/** The till's connection to each environment's relay: started from its settings, restarted when they change, its state kept for the screens. */
import { ENVIRONMENTS, type Environment } from '../../../shared/domain.js';
import type { RelayState } from '../../../shared/ipc/contract.js';
import type { RelayEvent } from '../../../shared/relay-wire.js';
import type { Db } from '../storage/index.js';
import type { Logger } from '../logger.js';
import { RelayClient, type RelayClientOptions } from './relay-client.js';
import type { EnvironmentConfig } from '../settings/index.js';

export type RelayTuning = Pick<RelayClientOptions, 'initialBackoffMs' | 'maxBackoffMs' | 'heartbeatTimeoutMs'>;

export type RelayConnectionsOptions = {
  db: Db;
  log: Logger;
  configFor: (environment: Environment) => Promise<EnvironmentConfig>;
  onEvent: (environment: Environment, event: RelayEvent) => void;
  onState: (environment: Environment, state: RelayState) => void;
  tuning?: RelayTuning;
};

export class RelayConnections {
  private readonly clients = new Map<Environment, RelayClient>();
  private readonly states = new Map<Environment, RelayState>();
  private closed = false;

  constructor(private readonly options: RelayConnectionsOptions) {}

  state(environment: Environment): RelayState {
    return this.states.get(environment) ?? 'offline';
  }

  startAll(): Promise<void> {
    return Promise.all(ENVIRONMENTS.map((environment) => this.start(environment))).then(() => undefined);
  }

  /** (Re)connects an environment with its current settings; without a relay URL and token it is offline. */
  async start(environment: Environment): Promise<void> {
    await this.clients.get(environment)?.stop();
    this.clients.delete(environment);
    const config = await this.options.configFor(environment);
    if (!config.relayUrl || !config.relayToken || this.closed) {
      this.states.set(environment, 'offline');
      return;
    }
    const { db, log, onEvent, onState, tuning } = this.options;
    const client = new RelayClient({
      environment,
      relayUrl: config.relayUrl,
      token: config.relayToken,
      db,
      log,
      onEvent: (event) => onEvent(environment, event),
      onState: (state) => {
        this.states.set(environment, state);
        onState(environment, state);
      },
      ...tuning,
    });
    this.clients.set(environment, client);
    client.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.clients.values()].map((client) => client.stop()));
  }
}
