/**
 * The single-merchant relay's commands: till tokens in the config file (`relay token create|list|revoke
 * --config <file>`) and the SQLite log's identity (`relay log-id show|new --data <dir>`). `token list` pages
 * as every list does (paging.ts), by label.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { addTillToken, loadRelayConfig, revokeTillToken } from '../ops/index.js';
import { DB_FILE_NAME, openRelayDatabase, readLogId, renewLogId } from '../store/sqlite/index.js';
import { pageOf, printPaged, type ListFlags } from './paging.js';
import { fail, out, PROG, USAGE } from './usage.js';

/** Its errors said plainly (relay/cli/main.ts: each family of commands brings its own). */
export { plainMessage } from './plain-errors.js';

export async function tokenCommand(positionals: string[], values: { label?: string; config?: string } & ListFlags): Promise<void> {
  const file = values.config ?? process.env.RELAY_CONFIG;
  if (!file) fail(`${PROG} token … needs --config <file> (or RELAY_CONFIG), or --merchant MCH_… with --database-url on PostgreSQL`);
  const verb = positionals[1];
  if (verb === 'create') {
    if (!values.label) fail(`${PROG} token create needs --label <name>`);
    const { token } = addTillToken(file, values.label);
    out(token);
    console.error(
      `Token for till "${values.label}" created; its SHA-256 hash was added to ${file}. ` +
        'This is the only time it is shown: enter it in the till now. A running relay picks it up within seconds.',
    );
  } else if (verb === 'list') {
    const { tills } = loadRelayConfig(file, {});
    await printPaged(
      values,
      async (page) => pageOf(tills, (t) => t.label, page),
      (t) => t.label,
      (t) => `${t.label}\t${t.createdAt ?? ''}`,
    );
  } else if (verb === 'revoke') {
    if (!values.label) fail(`${PROG} token revoke needs --label <name>`);
    if (!revokeTillToken(file, values.label)) fail(`No till labelled "${values.label}" in ${file}`);
    console.error(`Token of till "${values.label}" revoked.`);
  } else {
    fail(USAGE);
  }
}

export function logIdCommand(positionals: string[], values: { data?: string }): void {
  const dataDir = values.data ?? process.env.RELAY_DATA_DIR;
  if (!dataDir) fail(`${PROG} log-id … needs --data <dir> (or RELAY_DATA_DIR)`);
  const verb = positionals[1];
  if (verb !== 'show' && verb !== 'new') fail(USAGE);
  if (!existsSync(join(dataDir, DB_FILE_NAME))) fail(`No relay database in ${dataDir} (expected ${DB_FILE_NAME})`);
  const db = openRelayDatabase(dataDir);
  try {
    if (verb === 'show') out(readLogId(db));
    else {
      out(renewLogId(db));
      console.error("New log id written. Tills will read this relay's log again from the start when they next connect.");
    }
  } finally {
    db.close();
  }
}
