/** cli/: the relay's commands (serving, tokens and the log id on one merchant's files, the PostgreSQL management commands). */
export { PG_COMMANDS, runPgCommand } from './pg-commands.js';
