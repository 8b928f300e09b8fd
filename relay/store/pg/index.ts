/**
 * store/pg/: many merchants on PostgreSQL, several instances on one database. `PgStore` implements
 * store/'s `RelayStore`; the rest is what the CLI manages with (merchants, keys, tokens, the master
 * key, `import --from-sqlite`).
 */
export { connectionConfig, openPgPool, PgStore, type PgStoreOptions } from './pg-store.js';
export { migratePg, PG_MIGRATIONS, PG_SCHEMA_VERSION, PgSchemaError } from './schema.js';
export { loadMasterKey, MasterKeyError } from './secret-box.js';
export { PgSetupError, PgUnreachableError } from './pg-startup.js';
export {
  addKey,
  addMerchant,
  createToken,
  listMerchants,
  listTokens,
  MERCHANT_ID,
  removeKey,
  revokeToken,
  TenantError,
  type MerchantSummary,
} from './tenants.js';
export { importFromSqlite, type ImportResult } from './import-sqlite.js';
