/**
 * store/sqlite/: the store on SQLite. Others may use SqliteStore, the file's name, opening it and its log id, and the parts (for their tests).
 *
 * The embedded store, one merchant, its event log in `<data>/relay.sqlite` (keys and till tokens from
 * the config file). `SqliteStore` implements store/'s `RelayStore` on the event log
 * (event-log.ts, the reads) and the group committer (group-commit.ts, the writes); db.ts opens the file
 * and migrates it (migrations/, one file per version). The CLI's `log-id` commands use the database directly.
 */
export { SOLE_MERCHANT, SqliteStore } from './sqlite-store.js';
export { DB_FILE_NAME } from './file-name.js';
export { openRelayDatabase, readLogId, RelayDatabaseError, renewLogId } from './db.js';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';
// The parts, for their unit tests.
export { EventLog } from './event-log.js';
export { GroupCommitter } from './group-commit.js';
export { SqlitePruner } from './prune.js';
export { SqliteOwnerView } from './owner-view-sqlite.js';
export { rebuildOwnerSummary } from './migrations/0005-owner-view.js';
