/** `relay --port <n> …`: starts the relay on SQLite or PostgreSQL, reloads its config, stops on a signal. */
import { unwatchFile, watchFile } from 'node:fs';
import { stopWithParent } from '../../shared/stop-with-parent.js';
import { startRelay } from '../http/index.js';
import { loadRelayConfig } from '../ops/index.js';
import { loadMasterKey, loadPreviousMasterKeys } from '../store/pg/index.js';
import { DEFAULT_RETENTION_DAYS, parseRetentionDays } from '../store/index.js';
import { fail, USAGE } from './usage.js';

/** Its errors said plainly (relay/cli/main.ts: each family of commands brings its own). */
export { plainMessage } from './plain-errors.js';

export type ServeValues = {
  port?: string;
  host?: string;
  data?: string;
  config?: string;
  'database-url'?: string;
  'master-key-file'?: string;
  'pg-pool-size'?: string;
  'expected-instances'?: string;
  'master-key-previous-file'?: string;
  'admin-port'?: string;
  'admin-host'?: string;
  'retention-days'?: string;
};

/** A whole number in [min, max] from a flag or its environment variable, or the default. */
function intSetting(value: string | undefined, names: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < min || n > max) fail(`${names}: must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

/** PostgreSQL: connections per instance, instances sharing the database (checked against max_connections at start). */
function pgOptions(values: ServeValues) {
  return {
    poolSize: intSetting(values['pg-pool-size'] ?? process.env.RELAY_PG_POOL_SIZE, '--pg-pool-size (RELAY_PG_POOL_SIZE)', 1, 1000, 10),
    expectedInstances: intSetting(
      values['expected-instances'] ?? process.env.RELAY_INSTANCES,
      '--expected-instances (RELAY_INSTANCES)',
      1,
      1000,
      2,
    ),
    waitForDatabase: true,
  };
}

/** Where the log lives: a PostgreSQL database (many merchants) or a SQLite data folder (one). */
function storeOptions(values: ServeValues, configFile: string | undefined) {
  const databaseUrl = values['database-url'] ?? process.env.RELAY_DATABASE_URL;
  if (databaseUrl) {
    if (values.data) fail('--data and --database-url exclude each other: the log lives in one or the other');
    return {
      databaseUrl,
      masterKey: loadMasterKey(values['master-key-file']),
      previousMasterKeys: loadPreviousMasterKeys(values['master-key-previous-file']),
      pg: pgOptions(values),
      kind: 'postgres' as const,
    };
  }
  const dataDir = values.data ?? process.env.RELAY_DATA_DIR;
  if (!dataDir) fail(`--data <dir> (or RELAY_DATA_DIR), or --database-url, is required\n${USAGE}`);
  if (!configFile && !process.env.RELAY_KEYS) fail(`--config <file> (or RELAY_CONFIG, or RELAY_KEYS) is required\n${USAGE}`);
  return { dataDir, kind: 'sqlite' as const };
}

function port(text: string, flag: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) fail(`${flag}: must be 0-65535, got "${text}"`);
  return Number(text);
}

/** The admin API's listener: `--admin-port` / RELAY_ADMIN_PORT, on `--admin-host` / RELAY_ADMIN_HOST (127.0.0.1). */
function adminOptions(values: ServeValues): { adminPort?: number; adminHost?: string } {
  const text = values['admin-port'] ?? process.env.RELAY_ADMIN_PORT;
  if (text === undefined || text === '') return {};
  return { adminPort: port(text, '--admin-port'), adminHost: values['admin-host'] ?? process.env.RELAY_ADMIN_HOST ?? '127.0.0.1' };
}

export async function serve(values: ServeValues): Promise<void> {
  const portText = values.port ?? process.env.RELAY_PORT ?? '0';
  port(portText, '--port');
  const host = values.host ?? process.env.RELAY_HOST ?? '127.0.0.1';
  const configFile = values.config ?? process.env.RELAY_CONFIG;
  const { kind, ...store } = storeOptions(values, configFile);
  const fromEnv = values['retention-days'] === undefined && process.env.RELAY_RETENTION_DAYS !== undefined;
  const retentionText = values['retention-days'] ?? process.env.RELAY_RETENTION_DAYS ?? String(DEFAULT_RETENTION_DAYS);
  let retentionDays: number;
  try {
    retentionDays = parseRetentionDays(retentionText, fromEnv ? 'RELAY_RETENTION_DAYS' : '--retention-days');
  } catch (err) {
    fail((err as Error).message);
  }

  const config = loadRelayConfig(configFile, process.env, kind);
  const relay = await startRelay({ port: Number(portText), host, ...store, ...adminOptions(values), config, retentionDays });

  const reload = (why: string) => {
    try {
      relay.setConfig(loadRelayConfig(configFile, process.env, kind));
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'config_reload_failed', why, error: (err as Error).message }));
    }
  };
  process.on('SIGHUP', () => reload('SIGHUP'));
  if (configFile) watchFile(configFile, { interval: 1000 }, () => reload('file changed'));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (configFile) unwatchFile(configFile);
    relay
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error(JSON.stringify({ level: 'error', msg: 'shutdown_failed', signal, error: (err as Error).message }));
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  stopWithParent(stop);
  // Ready only once it can also be stopped.
  process.stdout.write(`${JSON.stringify({ ready: true, url: relay.url, ...(relay.adminUrl ? { adminUrl: relay.adminUrl } : {}) })}\n`);
}
