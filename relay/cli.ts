/**
 * npm run relay -- --port <n> --data <dir> --config <file>
 * npm run relay -- token create --label <name> --config <file>
 * npm run relay -- token list --config <file>
 * npm run relay -- token revoke --label <name> --config <file>
 * npm run relay -- log-id show|new --data <dir>
 * npm run relay -- --port <n> --database-url postgres://… [--config <file>]   (many merchants; RELAY_MASTER_KEY)
 * npm run relay -- merchant|key|token|import …  --database-url postgres://…     (see relay/cli/pg-commands.ts)
 *
 * Precedence for each setting: command-line flag, then environment variable, then config file.
 */
import { existsSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addTillToken, loadRelayConfig, RelayConfigError, revokeTillToken } from './ops/index.js';
import { DB_FILE_NAME, openRelayDatabase, readLogId, renewLogId } from './store/sqlite/index.js';
import { PG_COMMANDS, runPgCommand } from './cli/index.js';
import { loadMasterKey, MasterKeyError, TenantError } from './store/pg/index.js';
import { startRelay } from './http/index.js';
import { DamagedDatabaseError } from '../shared/sqlite-file.js';
import { stopWithParent } from '../shared/stop-with-parent.js';

const USAGE = `Usage:
  relay --port <n> --data <dir> --config <file> [--host 127.0.0.1]
  relay token create --label <name> --config <file>
  relay token list --config <file>
  relay token revoke --label <name> --config <file>
  relay log-id show|new --data <dir>   (new: after restoring a backup, with the relay stopped)
Many merchants on PostgreSQL (each command takes --database-url <url>, or RELAY_DATABASE_URL):
  relay --port <n> --database-url <url> [--config <file>] [--master-key-file <file>]
  relay merchant add --id MCH_… [--name <name>]
  relay merchant list
  relay key add --merchant MCH_… --public-id pk_… < secret-on-stdin
  relay key remove --public-id pk_…
  relay token create|list|revoke --merchant MCH_… [--label <name>]
  relay import --from-sqlite <data dir> --merchant MCH_…
Environment: RELAY_PORT, RELAY_HOST, RELAY_DATA_DIR, RELAY_CONFIG, RELAY_KEYS, RELAY_TILLS,
  RELAY_SIGNED_PAYLOAD, RELAY_TIMESTAMP_TOLERANCE_SECONDS, RELAY_MAX_BODY_BYTES, RELAY_HEARTBEAT_SECONDS,
  RELAY_GROUP_COMMIT_MAX_BATCH, RELAY_GROUP_COMMIT_WINDOW_MS, RELAY_MAX_PAGE_SIZE, RELAY_MAX_SSE_CLIENTS,
  RELAY_MAX_STREAMS_PER_MERCHANT, RELAY_MAX_STREAMS_PER_TOKEN, RELAY_DATABASE_URL, RELAY_MASTER_KEY,
  RELAY_MASTER_KEY_FILE,
  RELAY_MAX_CONNECTIONS, RELAY_HEADERS_TIMEOUT_MS, RELAY_REQUEST_TIMEOUT_MS, RELAY_KEEP_ALIVE_TIMEOUT_MS,
  RELAY_MAX_REQUESTS_PER_SOCKET, RELAY_MAX_PENDING_BODY_BYTES, RELAY_WARNING_SUMMARY_SECONDS,
  RELAY_LOG_LEVEL=debug (see relay/README.md).`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        config: { type: 'string' },
        label: { type: 'string' },
        'database-url': { type: 'string' },
        'master-key-file': { type: 'string' },
        merchant: { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
        'public-id': { type: 'string' },
        'from-sqlite': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
}

function tokenCommand(positionals: string[], values: { label?: string; config?: string }): void {
  const file = values.config ?? process.env.RELAY_CONFIG;
  if (!file) fail('token commands need --config <file> (or RELAY_CONFIG)');
  const verb = positionals[1];
  if (verb === 'create') {
    if (!values.label) fail('token create needs --label <name>');
    const { token } = addTillToken(file, values.label);
    console.log(token);
    console.error(
      `Token for till "${values.label}" created; its SHA-256 hash was added to ${file}. ` +
        'This is the only time it is shown: enter it in the till now. A running relay picks it up within seconds.',
    );
  } else if (verb === 'list') {
    const config = loadRelayConfig(file, {});
    for (const till of config.tills) console.log(`${till.label}\t${till.createdAt ?? ''}`);
  } else if (verb === 'revoke') {
    if (!values.label) fail('token revoke needs --label <name>');
    if (!revokeTillToken(file, values.label)) fail(`No till labelled "${values.label}" in ${file}`);
    console.error(`Token of till "${values.label}" revoked.`);
  } else {
    fail(USAGE);
  }
}

function logIdCommand(positionals: string[], values: { data?: string }): void {
  const dataDir = values.data ?? process.env.RELAY_DATA_DIR;
  if (!dataDir) fail('log-id commands need --data <dir> (or RELAY_DATA_DIR)');
  const verb = positionals[1];
  if (verb !== 'show' && verb !== 'new') fail(USAGE);
  if (!existsSync(join(dataDir, DB_FILE_NAME))) fail(`No relay database in ${dataDir} (expected ${DB_FILE_NAME})`);
  const db = openRelayDatabase(dataDir);
  try {
    if (verb === 'show') console.log(readLogId(db));
    else {
      console.log(renewLogId(db));
      console.error("New log id written. Tills will read this relay's log again from the start when they next connect.");
    }
  } finally {
    db.close();
  }
}

type ServeValues = { port?: string; host?: string; data?: string; config?: string; 'database-url'?: string; 'master-key-file'?: string };

/** Where the log lives: a PostgreSQL database (many merchants) or a SQLite data folder (one). */
function storeOptions(values: ServeValues, configFile: string | undefined) {
  const databaseUrl = values['database-url'] ?? process.env.RELAY_DATABASE_URL;
  if (databaseUrl) {
    if (values.data) fail('--data and --database-url exclude each other: the log lives in one or the other');
    return { databaseUrl, masterKey: loadMasterKey(values['master-key-file']), kind: 'postgres' as const };
  }
  const dataDir = values.data ?? process.env.RELAY_DATA_DIR;
  if (!dataDir) fail(`--data <dir> (or RELAY_DATA_DIR), or --database-url, is required\n${USAGE}`);
  if (!configFile && !process.env.RELAY_KEYS) fail(`--config <file> (or RELAY_CONFIG, or RELAY_KEYS) is required\n${USAGE}`);
  return { dataDir, kind: 'sqlite' as const };
}

async function serve(values: ServeValues): Promise<void> {
  const portText = values.port ?? process.env.RELAY_PORT ?? '0';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) fail(`--port: must be 0-65535, got "${portText}"`);
  const host = values.host ?? process.env.RELAY_HOST ?? '127.0.0.1';
  const configFile = values.config ?? process.env.RELAY_CONFIG;
  const { kind, ...store } = storeOptions(values, configFile);

  const config = loadRelayConfig(configFile, process.env, kind);
  const relay = await startRelay({ port: Number(portText), host, ...store, config });

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
  process.stdout.write(`${JSON.stringify({ ready: true, url: relay.url })}\n`);
}

async function main(): Promise<void> {
  const { values, positionals } = parse();
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const databaseUrl = values['database-url'] ?? process.env.RELAY_DATABASE_URL;
  const noun = positionals[0] ?? '';
  if (PG_COMMANDS.has(noun) || (noun === 'token' && databaseUrl)) {
    if (!databaseUrl) fail(`${noun} commands need --database-url <postgres://…> (or RELAY_DATABASE_URL)`);
    return runPgCommand(positionals, values, databaseUrl);
  }
  if (positionals[0] === 'token') return tokenCommand(positionals, values);
  if (positionals[0] === 'log-id') return logIdCommand(positionals, values);
  if (positionals.length > 0) fail(`Unknown command "${positionals.join(' ')}"\n${USAGE}`);
  await serve(values);
}

main().catch((err: unknown) => {
  // Said plainly, without a stack trace: a bad config, a bad master key or tenant, a damaged database.
  if (err instanceof RelayConfigError || err instanceof MasterKeyError || err instanceof TenantError || err instanceof DamagedDatabaseError)
    fail(err.message);
  console.error((err as Error).stack ?? String(err));
  process.exit(1);
});
