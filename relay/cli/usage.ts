/** The relay's usage text, and how a command answers or gives up. */

export const USAGE = `Usage:
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

/** A usage error: said on stderr, exit status 2. */
export function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** What the operator asked for, on stdout (messages go to stderr). */
export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}
