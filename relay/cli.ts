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
 * This file is only the entry point (`npm run relay`); the commands are in relay/cli/.
 */
import { runCli } from './cli/index.js';

runCli();
