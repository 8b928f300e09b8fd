/**
 * store/pg/: many merchants on PostgreSQL, several instances on one database. `PgStore` implements
 * store/'s `RelayStore`; the rest is what the CLI and the admin API manage with (merchants, keys,
 * tokens, the master key and its rotation, admin tokens, the audit, usage, `import --from-sqlite`).
 */
export { PgStore, type PgStoreOptions } from './pg-store.js';
export { connectionConfig, openPgPool } from './pg-pool.js';
export { migratePg, PG_MIGRATIONS, PG_SCHEMA_VERSION, PgSchemaError } from './migrations/index.js';
export { decodeKey, loadMasterKey, loadPreviousMasterKeys, MasterKeyError, readMasterKeyFile, type MasterKeyWarn } from './secret-box.js';
export { assertMasterKey, rotateMasterKey, type RotateResult } from './master-key.js';
export type { UnreadableKey } from './pg-directory.js';
export { PgSetupError, PgUnreachableError } from './pg-startup.js';
export { checkMerchantId, MERCHANT_ID, requireMerchant, TenantError } from './merchant-ids.js';
export { addKey, addMerchant, createToken, removeKey, revokeToken } from './tenants.js';
export {
  listKeys,
  listMerchants,
  listTokens,
  removeMerchant,
  renewLogIds,
  setSuspended,
  type KeySummary,
  type MerchantSummary,
  type TokenSummary,
} from './merchant-admin.js';
export {
  ADMIN_TOKEN,
  authenticateAdmin,
  createAdminToken,
  listAdminTokens,
  revokeAdminToken,
  type AdminTokenSummary,
} from './admin-tokens.js';
export { audit, cliActor, listAudit, type AuditEntry, type AuditRow } from './audit.js';
export { merchantUsage, type UsageDay } from './usage.js';
export { importFromSqlite, type ImportResult } from './import-sqlite.js';
export { listOwnerLinks, OWNER_LINK_ID, revokeOwnerLink, type OwnerLinkRevoked } from './owner-links-admin.js';
export { PgOwnerView } from './owner-view-pg.js';
