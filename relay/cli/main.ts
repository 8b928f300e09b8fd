/** The relay's command line: which command, and how an error ends it. */
import { parseArgs } from 'node:util';
import { DamagedDatabaseError } from '../../shared/sqlite-file.js';
import { RelayConfigError } from '../ops/index.js';
import { MasterKeyError, TenantError } from '../store/pg/index.js';
import { PG_COMMANDS, runPgCommand } from './pg-commands.js';
import { serve } from './serve.js';
import { logIdCommand, tokenCommand } from './sqlite-commands.js';
import { fail, out, USAGE } from './usage.js';

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

async function main(): Promise<void> {
  const { values, positionals } = parse();
  if (values.help) {
    out(USAGE);
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

/** Runs the command line; an error ends the process (status 2 for the ones said plainly, 1 otherwise). */
export function runCli(): void {
  main().catch((err: unknown) => {
    // Said plainly, without a stack trace: a bad config, a bad master key or tenant, a damaged database.
    if (
      err instanceof RelayConfigError ||
      err instanceof MasterKeyError ||
      err instanceof TenantError ||
      err instanceof DamagedDatabaseError
    )
      fail(err.message);
    console.error((err as Error).stack ?? String(err));
    process.exit(1);
  });
}
