/**
 * store/pg/: the store on PostgreSQL. Others may use PgStore, the pool and schema, the master key, and admin/'s and import/'s functions.
 *
 * Many merchants, several instances on one database. Here, `PgStore` (pg-store.ts) and its commit
 * path (committer, directory, feed, usage recorder); admin/ holds what the CLI and the admin API
 * manage with (merchants, keys, tokens, admin tokens, the audit, usage, the master key's rotation),
 * import/ `import --from-sqlite`.
 */
export { PgStore, type PgStoreOptions } from './pg-store.js';
export { connectionConfig, openPgPool } from './pg-pool.js';
export { migratePg, PG_MIGRATIONS, PG_SCHEMA_VERSION, PgSchemaError, PgSchemaTooNewError } from './migrations/index.js';
export { decodeKey, loadMasterKey, loadPreviousMasterKeys, MasterKeyError, readMasterKeyFile, type MasterKeyWarn } from './secret-box.js';
export { assertMasterKey, sealedWith, type KeyInUse } from './master-key.js';
export { PgSetupError, PgUnreachableError, waitForDatabase } from './pg-startup.js';
export {
  addKey,
  addMerchant,
  ADMIN_TOKEN,
  audit,
  authenticateAdmin,
  checkMerchantId,
  cliActor,
  adminActor,
  createAdminToken,
  createAdminTokenWithId,
  createToken,
  listAdminTokens,
  listAudit,
  listKeys,
  listMerchants,
  listOwnerLinks,
  listTokens,
  MERCHANT_ID,
  merchantUsage,
  OWNER_LINK_ID,
  removeKey,
  removeMerchant,
  renewLogIds,
  requireMerchant,
  revokeAdminToken,
  revokeOwnerLink,
  revokeToken,
  rotateMasterKey,
  setSuspended,
  TenantError,
  type AdminTokenSummary,
  type AuditEntry,
  type RotateResult,
} from './admin/index.js';
export { importFromSqlite, type ImportResult } from './import/index.js';
export { PgOwnerView } from './owner-view-pg.js';
export { ReadGate } from './read-gate.js';
