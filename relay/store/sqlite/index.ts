/**
 * store/sqlite/: the embedded store, one merchant, its event log in `<data>/relay.sqlite` (keys and
 * till tokens from the config file). `SqliteStore` implements store/'s `RelayStore` on the event log
 * (event-log.ts, the reads) and the group committer (group-commit.ts, the writes); db.ts opens and
 * migrates the file. The CLI's `log-id` commands use the database directly.
 */
export { SOLE_MERCHANT, SqliteStore } from './sqlite-store.js';
export { DB_FILE_NAME } from './file-name.js';
export { MIGRATIONS, openRelayDatabase, readLogId, RelayDatabaseError, renewLogId, SCHEMA_VERSION } from './db.js';
// The parts, for their unit tests.
export { EventLog } from './event-log.js';
export { GroupCommitter } from './group-commit.js';
export { SqlitePruner } from './prune.js';
export { rebuildOwnerSummary, SqliteOwnerView } from './owner-view-sqlite.js';
