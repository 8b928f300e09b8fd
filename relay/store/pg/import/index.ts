/** pg/import/: `relay import --from-sqlite`, a single-shop relay's log moved into one merchant. Others may use importFromSqlite. */
export { importFromSqlite, type ImportResult } from './import-sqlite.js';
