/**
 * The name of the relay's SQLite file in its data folder, in a file of its own: `import --from-sqlite`
 * (store/pg) needs the name without loading the SQLite store and better-sqlite3 (scripts/build-relay.mjs
 * leaves out of each bundle the modules it does not use).
 */
export const DB_FILE_NAME = 'relay.sqlite';
