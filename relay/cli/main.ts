/**
 * The relay's command line: which command, and how an error ends it.
 *
 * Each family of commands is imported when it runs, so that a CLI call loads only what it uses: the
 * server (HTTP, prom-client, SQLite) for serving, the PostgreSQL commands for `merchant list` and the
 * like. Built (scripts/build-relay.mjs), each family is a bundle of its own next to cli.js, holding only
 * the code and packages it uses, so a `merchant list` never loads the server. Each family exports the
 * `plainMessage` of its own copy of the error classes, so an error is recognised by the bundle that threw it.
 */
import { parseArgs } from 'node:util';
import { loadWithoutCloudflareProbe } from './pg-load.js';
import { LISTED, PG_COMMANDS, refuseMixedStores } from './store-choice.js';
import { fail, out, PROG, USAGE } from './usage.js';

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
        'expires-in': { type: 'string' },
        'database-url': { type: 'string' },
        'master-key-file': { type: 'string' },
        'master-key-previous-file': { type: 'string' },
        'new-key-file': { type: 'string' },
        'key-file': { type: 'string' },
        'admin-port': { type: 'string' },
        'admin-host': { type: 'string' },
        json: { type: 'boolean' },
        all: { type: 'boolean' },
        merchant: { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
        'public-id': { type: 'string' },
        'from-sqlite': { type: 'string' },
        'pg-pool-size': { type: 'string' },
        'expected-instances': { type: 'string' },
        'retention-days': { type: 'string' },
        'discard-unread': { type: 'string' },
        limit: { type: 'string' },
        after: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
}

type Explain = (err: unknown) => string | undefined;
/** How the family of commands that runs says its errors plainly (plain-errors.ts). */
let explain: Explain | undefined;

async function main(): Promise<void> {
  const { values, positionals } = parse();
  if (values.help) {
    out(USAGE);
    return;
  }
  const databaseUrl = values['database-url'] ?? process.env.RELAY_DATABASE_URL;
  const noun = positionals[0] ?? '';
  refuseMixedStores(noun, values, databaseUrl);
  if (noun === 'owner-link') {
    const family = await import('./owner-link-commands.js');
    explain = family.plainMessage;
    return databaseUrl ? family.pgOwnerLinkCommand(positionals, values, databaseUrl) : family.sqliteOwnerLinkCommand(positionals, values);
  }
  const pgLogId = noun === 'log-id' && (values.merchant !== undefined || values.all);
  if (PG_COMMANDS.has(noun) || pgLogId || (noun === 'token' && databaseUrl)) {
    if (!databaseUrl) fail(`${PROG} ${noun} … needs --database-url <postgres://…> (or RELAY_DATABASE_URL)`);
    if (positionals[1] === 'list' && LISTED.includes(noun)) {
      const family = await loadWithoutCloudflareProbe(() => import('./pg-list-commands.js'));
      explain = family.plainMessage;
      return family.runPgList(noun, values, databaseUrl);
    }
    const family = await loadWithoutCloudflareProbe(() => import('./pg-commands.js'));
    explain = family.plainMessage;
    return family.runPgCommand(positionals, values, databaseUrl);
  }
  if (noun === 'token' || noun === 'log-id') {
    const family = await import('./sqlite-commands.js');
    explain = family.plainMessage;
    return noun === 'token' ? family.tokenCommand(positionals, values) : family.logIdCommand(positionals, values);
  }
  if (positionals.length > 0) fail(`Unknown command "${positionals.join(' ')}"\n${USAGE}`);
  const family = await import('./serve.js');
  explain = family.plainMessage;
  await family.serve(values);
}

/** Runs the command line; an error ends the process (status 2 for the ones said plainly, 1 otherwise). */
export function runCli(): void {
  main().catch((err: unknown) => {
    // Said plainly in one line, without a stack trace (see plain-errors.ts).
    const plain = explain?.(err);
    if (plain !== undefined) fail(plain);
    console.error((err as Error).stack ?? String(err));
    process.exit(1);
  });
}
