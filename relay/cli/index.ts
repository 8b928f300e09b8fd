/**
 * cli/: the relay's command line (relay/cli.ts runs it): serving on SQLite or PostgreSQL, till tokens
 * and the log id on one merchant's files, and the PostgreSQL management commands.
 */
export { runCli } from './main.js';
