/**
 * cli/: the relay's command line. Others may use runCli (relay/cli.ts runs it).
 *
 * Serving on SQLite or PostgreSQL, till tokens and the log id on one merchant's files, and the
 * PostgreSQL management commands, each family imported when it runs (main.ts).
 */
export { runCli } from './main.js';
