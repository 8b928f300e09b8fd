/** The relay's usage text, and how a command answers or gives up. */
import { basename, relative } from 'node:path';

/**
 * The command as the operator types it, for messages: `npm run relay --` from a checkout (the
 * TypeScript entry, or any npm script), the installed bin's name (`momo-relay`), or `node <path>` for
 * the built file run directly.
 */
export function programName(env: NodeJS.ProcessEnv = process.env, script: string = process.argv[1] ?? ''): string {
  const file = basename(script);
  if (env.npm_lifecycle_event === 'relay' || file === 'cli.ts') return 'npm run relay --';
  if (file.endsWith('.js') || file.endsWith('.mjs')) return `node ${relative(process.cwd(), script) || file}`;
  return file || 'momo-relay';
}

export const PROG = programName();

/**
 * Commands named in messages from lower layers, which name the installed command ("momo-relay merchant
 * add …", as the admin API says them), said the way this operator types them.
 */
export function asTyped(message: string): string {
  return message.replace(/\b(?:momo-)?relay (?=(merchant|key|token|import|log-id|master-key|admin-token|owner-link)\b)/g, `${PROG} `);
}

export const USAGE = `Usage (see relay/README.md):
  relay --port <n> --data <dir> --config <file> [--host 127.0.0.1] [--retention-days 90]
  relay token create --label <name> --config <file>
  relay token list --config <file>
  Every list pages: [--limit <n>] [--after <cursor>] (one page; while more follow, the next page's cursor on stderr)
  relay token revoke --label <name> --config <file>
  relay log-id show|new --data <dir>   (new: after restoring a backup, with the relay stopped)
  relay owner-link list --data <dir> [--json]      (the owner's phone links; revoke: --id ol_… --data <dir>)
Many merchants on PostgreSQL (each command takes --database-url <url>, or RELAY_DATABASE_URL):
  relay --port <n> --database-url <url> [--config <file>] [--master-key-file <file>]
        [--pg-pool-size 10] [--expected-instances 2]
  relay merchant add --id MCH_… [--name <name>]
  relay --port <n> --database-url <url> --admin-port <n> [--admin-host 127.0.0.1] [--master-key-previous-file <file>]
  relay merchant list [--json]
  relay merchant suspend|resume|remove --id MCH_… [--discard-unread <count>]
  relay key add --merchant MCH_… --public-id pk_… < secret-on-stdin
  relay key list --merchant MCH_… [--json]
  relay key remove --public-id pk_…
  relay token create|list|revoke --merchant MCH_… [--label <name>] [--json]
  relay log-id new --merchant MCH_…|--all   (after restoring a backup)
  relay admin-token create --label <name> [--expires-in 90d|12h]
  relay admin-token list|revoke [--label <name>] [--json]
  relay audit list [--merchant MCH_…] [--json]      (newest first)
  relay master-key rotate [--new-key-file <file>]   (else the new key on stdin; writes the key file itself)
  relay master-key check --key-file <file>         (exit 0 only when nothing is sealed with that key)
  relay import --from-sqlite <data dir> --merchant MCH_…
  relay owner-link list --merchant MCH_… [--json]
  relay owner-link revoke --id ol_…
Environment: RELAY_PORT, RELAY_HOST, RELAY_DATA_DIR, RELAY_CONFIG, RELAY_KEYS, RELAY_TILLS,
  RELAY_SIGNED_PAYLOAD, RELAY_TIMESTAMP_TOLERANCE_SECONDS, RELAY_MAX_BODY_BYTES, RELAY_HEARTBEAT_SECONDS,
  RELAY_GROUP_COMMIT_MAX_BATCH, RELAY_GROUP_COMMIT_WINDOW_MS, RELAY_MAX_PAGE_SIZE, RELAY_MAX_SSE_CLIENTS,
  RELAY_MAX_STREAMS_PER_MERCHANT, RELAY_MAX_STREAMS_PER_TOKEN, RELAY_DATABASE_URL, RELAY_MASTER_KEY,
  RELAY_MASTER_KEY_FILE, RELAY_MASTER_KEY_PREVIOUS, RELAY_MASTER_KEY_PREVIOUS_FILE, RELAY_ADMIN_PORT, RELAY_ADMIN_HOST,
  RELAY_RETENTION_DAYS (0 keeps every event),
  RELAY_MAX_CONNECTIONS, RELAY_HEADERS_TIMEOUT_MS, RELAY_REQUEST_TIMEOUT_MS, RELAY_KEEP_ALIVE_TIMEOUT_MS,
  RELAY_MAX_REQUESTS_PER_SOCKET, RELAY_MAX_PENDING_BODY_BYTES, RELAY_WARNING_SUMMARY_SECONDS,
  the shares per merchant and per token (RELAY_MAX_READS_IN_FLIGHT_PER_TOKEN, … : relay/docs/limits.md),
  RELAY_LOG_LEVEL=debug, RELAY_PG_POOL_SIZE, RELAY_INSTANCES (see relay/docs/operator-guide.md).`.replace(/^ {2}relay /gm, `  ${PROG} `);

/** A usage error: said on stderr, exit status 2. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** What the operator asked for, on stdout (messages go to stderr). */
let quietOnClosedPipe = false;

/** A command's output line. A reader that stops early (`momo-relay merchant list | head`) closes the pipe: the command has said enough. */
export function out(line: string): void {
  if (!quietOnClosedPipe) {
    quietOnClosedPipe = true; // by the first command line: serve never prints one, so a server is not ended this way
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
  process.stdout.write(`${line}\n`);
}
