/** pg/admin/: the operator's changes and reads of merchants, keys, tokens, admin tokens, audit and usage. Others may use what is exported here. */
export { pgAdministration } from './administration.js';
export { checkMerchantId, MERCHANT_ID, requireMerchant, TenantError } from './merchant-ids.js';
export { addKey, addMerchant, createToken, removeKey, revokeToken } from './tenants.js';
export { listKeys, listMerchants, listTokens, removeMerchant, renewLogIds, setSuspended } from './merchant-admin.js';
export {
  ADMIN_TOKEN,
  adminActor,
  authenticateAdmin,
  createAdminToken,
  createAdminTokenWithId,
  listAdminTokens,
  revokeAdminToken,
  type AdminTokenSummary,
} from './admin-tokens.js';
export { audit, cliActor, listAudit, type AuditEntry } from './audit.js';
export { merchantUsage } from './usage.js';
export { rotateMasterKey, type RotateResult } from './master-key-rotation.js';
export { listOwnerLinks, OWNER_LINK_ID, revokeOwnerLink } from './owner-links-admin.js';
