/**
 * The PostgreSQL store's `Administration`: the same functions the CLI runs, on the instance's pool and
 * with its master key, so a change from the admin API is checked and audited exactly as one from the CLI.
 */
import type pg from 'pg';
import type { Administration } from '../../index.js';
import { authenticateAdmin } from './admin-tokens.js';
import { listAudit } from './audit.js';
import { listKeys, listMerchants, listTokens, removeMerchant, renewLogIds, setSuspended } from './merchant-admin.js';
import { requireMerchant } from './merchant-ids.js';
import { listOwnerLinks, revokeOwnerLink } from './owner-links-admin.js';
import { addKey, addMerchant, createToken, removeKey, revokeToken } from './tenants.js';
import { merchantUsage } from './usage.js';

export function pgAdministration(pool: pg.Pool, masterKey: Buffer): Administration {
  return {
    authenticate: (token) => authenticateAdmin(pool, token),
    listMerchants: (only, page) => listMerchants(pool, only, page),
    requireMerchant: (id) => requireMerchant(pool, id),
    addMerchant: (id, name, actor) => addMerchant(pool, id, name, actor),
    removeMerchant: (id, actor, options) => removeMerchant(pool, id, actor, options),
    setSuspended: (id, suspended, actor) => setSuspended(pool, id, suspended, actor),
    renewLogIds: (which, actor) => renewLogIds(pool, which, actor),
    listKeys: (merchantId, page) => listKeys(pool, merchantId, page),
    addKey: (merchantId, publicId, secret, actor) => addKey(pool, masterKey, merchantId, publicId, secret, actor),
    removeKey: (publicId, actor) => removeKey(pool, publicId, actor),
    listTokens: (merchantId, page) => listTokens(pool, merchantId, page),
    createToken: (merchantId, label, actor) => createToken(pool, merchantId, label, actor),
    revokeToken: (merchantId, label, actor) => revokeToken(pool, merchantId, label, actor),
    listOwnerLinks: (merchantId, page) => listOwnerLinks(pool, merchantId, page),
    revokeOwnerLink: (id, actor) => revokeOwnerLink(pool, id, actor),
    usage: (merchantId, days) => merchantUsage(pool, merchantId, days),
    listAudit: (filter) => listAudit(pool, filter),
  };
}
