/** The relay's command line: which command, and how an error ends it. */
import { parseArgs } from 'node:util';
import { pgOwnerLinkCommand, sqliteOwnerLinkCommand } from './owner-link-commands.js';
import { PG_COMMANDS, runPgCommand } from './pg-commands.js';
import { plainMessage } from './plain-errors.js';
import { refuseMixedStores } from './store-choice.js';
import { serve } from './serve.js';
import { logIdCommand, tokenCommand } from './sqlite-commands.js';
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
        'database-url': { type: 'string' },
        'master-key-file': { type: 'string' },
        'master-key-previous-file': { type: 'string' },
        'new-key-file': { type: 'string' },
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
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
}

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
    return databaseUrl ? pgOwnerLinkCommand(positionals, values, databaseUrl) : sqliteOwnerLinkCommand(positionals, values);
  }
  const pgLogId = noun === 'log-id' && (values.merchant !== undefined || values.all);
  if (PG_COMMANDS.has(noun) || pgLogId || (noun === 'token' && databaseUrl)) {
    if (!databaseUrl) fail(`${PROG} ${noun} … needs --database-url <postgres://…> (or RELAY_DATABASE_URL)`);
    return runPgCommand(positionals, values, databaseUrl);
  }
  if (positionals[0] === 'token') return tokenCommand(positionals, values);
  if (positionals[0] === 'log-id') return logIdCommand(positionals, values);
  if (positionals.length > 0) fail(`Unknown command "${positionals.join(' ')}"\n${USAGE}`);
  await serve(values);
}

/** Runs the command line; an error ends the process (status 2 for the ones said plainly, 1 otherwise). */
export function runCli(): void {
  main().catch((err: unknown) => {
    // Said plainly in one line, without a stack trace (see plain-errors.ts).
    const plain = plainMessage(err);
    if (plain !== undefined) fail(plain);
    console.error((err as Error).stack ?? String(err));
    process.exit(1);
  });
}
