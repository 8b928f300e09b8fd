/**
 * Where each environment's service and relay are: the owner's saved settings (secrets from the keychain,
 * read once and kept until the settings change), or, for TEST with no service URL set, the simulator and
 * relay the core starts on loopback.
 */
import type { Environment } from '../../../shared/domain.js';
import { startEmbedded, type EmbeddedClock, type EmbeddedServices } from '../embedded.js';
import type { Logger } from '../logger.js';
import type { SecretStore } from '../storage/index.js';
import type { EnvironmentConfig, SettingsStore } from './settings-store.js';

/** What the till signs its calls to the payment service with, for one environment. */
export type ServiceCredentials = { baseUrl: string; merchantId: string; secretKey: string };

export type ServiceConfigsOptions = {
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  log: Logger;
  /** False: never start the embedded services (TEST then needs settings like LIVE). */
  embedded: boolean;
  embeddedTimeScale?: number;
  embeddedClock?: EmbeddedClock;
};

export class ServiceConfigs {
  private embedded: EmbeddedServices | null = null;
  private readonly stored = new Map<Environment, EnvironmentConfig>();

  constructor(private readonly options: ServiceConfigsOptions) {}

  get embeddedRunning(): boolean {
    return this.embedded !== null;
  }

  private usesEmbedded(environment: Environment): boolean {
    return this.options.embedded && environment === 'test' && this.options.settings.settings.test.baseUrl === '';
  }

  /** Starts the embedded simulator and relay when TEST should run on them and they are not running yet. */
  async ensureEmbedded(): Promise<void> {
    if (this.embedded || !this.usesEmbedded('test')) return;
    const { dataDir, secrets, log, settings } = this.options;
    const embedded = await startEmbedded({
      dataDir,
      secrets,
      log,
      preferredPorts: settings.settings.embeddedPorts,
      timeScale: this.options.embeddedTimeScale,
      clock: this.options.embeddedClock,
    });
    this.embedded = embedded;
    settings.update({ embeddedPorts: embedded.ports });
    log.info('embedded.started', { baseUrl: embedded.baseUrl, relayUrl: embedded.relayUrl });
  }

  async configFor(environment: Environment): Promise<EnvironmentConfig> {
    const e = this.embedded;
    if (e && this.usesEmbedded(environment)) {
      const { baseUrl, merchantId, publicKeyId, secretKey, relayUrl, relayToken } = e;
      return {
        environment,
        embedded: true,
        baseUrl,
        merchantId,
        publicKeyId,
        secretKey,
        relayUrl,
        relayToken,
        callbackUrl: `${relayUrl}/v1/webhooks`,
      };
    }
    let config = this.stored.get(environment);
    if (!config) {
      config = await this.options.settings.storedConfig(environment);
      this.options.log.registerSecret(config.secretKey);
      this.options.log.registerSecret(config.relayToken);
      this.stored.set(environment, config);
    }
    return config;
  }

  /** The settings of this environment changed: read them again next time. */
  forget(environment: Environment): void {
    this.stored.delete(environment);
  }

  /** What a payment needs to be sent, or null while the environment is not usable. */
  async credentialsFor(environment: Environment): Promise<(ServiceCredentials & { callbackUrl: string }) | null> {
    const c = await this.configFor(environment);
    if (!c.baseUrl || !c.merchantId || !c.secretKey || !c.relayUrl) return null;
    return { baseUrl: c.baseUrl, merchantId: c.merchantId, secretKey: c.secretKey, callbackUrl: c.callbackUrl };
  }

  async close(): Promise<void> {
    await this.embedded?.close();
  }
}
