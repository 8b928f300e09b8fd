/**
 * Merchants, their service keys and their till tokens in PostgreSQL: what the CLI manages
 * (`relay merchant|key|token …`). Every change fires the auth_version trigger, so each running
 * instance reloads within its catch-up period (at once when its NOTIFY arrives).
 */
import type pg from 'pg';
import { nameProblem } from '../../../../shared/characters.js';
import { createRelayToken, newLabelProblem, relayKeySchema } from '../../../ops/index.js';
import { newLogId } from '../../index.js';
import { inTransaction } from '../transaction.js';
import { audit, cliActor } from './audit.js';
import { withCheckedMasterKey } from '../master-key.js';
import { checkMerchantId, requireMerchant, TenantError } from './merchant-ids.js';
import { sealSecret } from '../secret-box.js';

/** A merchant's name is shown in terminals and on screens, and told apart by eye (shared/characters.ts). */
function checkMerchantName(name: string | undefined): void {
  if (name === undefined) return;
  if (name.length === 0 || name.length > 200) throw new TenantError('--name: must be 1-200 characters');
  const problem = nameProblem(name);
  if (problem) throw new TenantError(`--name: ${problem}`);
}

export async function addMerchant(db: pg.Pool, id: string, name?: string, actor = cliActor()): Promise<void> {
  checkMerchantId(id, '--id');
  checkMerchantName(name);
  await inTransaction(db, async (client) => {
    // No conflict target: the id's key and its case-insensitive index (MCH_alpha and MCH_ALPHA are one merchant) both count.
    const { rowCount } = await client.query('INSERT INTO merchants (id, name, log_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
      id,
      name ?? null,
      newLogId(),
    ]);
    if (!rowCount) {
      const { rows } = await client.query<{ id: string }>('SELECT id FROM merchants WHERE lower(id) = lower($1)', [id]);
      const existing = rows[0]?.id ?? id;
      throw new TenantError(
        existing === id
          ? `Merchant ${id} already exists`
          : `Merchant ${existing} already exists (ids differ only in case: ${id} is the same id)`,
      );
    }
    await audit(client, actor, { action: 'merchant.add', merchantId: id, detail: { name: name ?? null } });
  });
}

/** Adds a service key to a merchant; the secret is sealed with the master key before it leaves memory. */
export async function addKey(
  db: pg.Pool,
  masterKey: Buffer,
  merchantId: string,
  publicId: string,
  secret: string,
  actor = cliActor(),
): Promise<void> {
  const parsed = relayKeySchema.safeParse({ publicId, secret });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TenantError(`${issue?.path.join('.') === 'secret' ? 'secret (stdin)' : '--public-id'}: ${issue?.message ?? 'invalid'}`);
  }
  checkMerchantId(merchantId);
  // Refused, with nothing written, unless this master key is the one the stored secrets are sealed with.
  await withCheckedMasterKey(db, masterKey, async (client) => {
    await requireMerchant(client, merchantId);
    const { rows } = await client.query<{ merchant_id: string }>(
      `INSERT INTO service_keys (public_id, merchant_id, secret_sealed) VALUES ($1, $2, $3)
       ON CONFLICT (public_id) DO NOTHING RETURNING merchant_id`,
      [publicId, merchantId, sealSecret(masterKey, publicId, secret)],
    );
    if (rows.length === 0) throw new TenantError(`Key ${publicId} is already registered (remove it first to replace it)`);
    await audit(client, actor, { action: 'key.add', merchantId, target: publicId });
  });
}

export async function removeKey(db: pg.Pool, publicId: string, actor = cliActor()): Promise<{ merchantId: string } | null> {
  return inTransaction(db, async (client) => {
    const { rows } = await client.query<{ merchant_id: string }>('DELETE FROM service_keys WHERE public_id = $1 RETURNING merchant_id', [
      publicId,
    ]);
    if (!rows[0]) return null;
    await audit(client, actor, { action: 'key.remove', merchantId: rows[0].merchant_id, target: publicId });
    return { merchantId: rows[0].merchant_id };
  });
}

/** A new till token for the merchant; only its SHA-256 is stored. Returns the token, to be shown once. */
export async function createToken(db: pg.Pool, merchantId: string, label: string, actor = cliActor()): Promise<string> {
  const problem = newLabelProblem(label);
  if (problem) throw new TenantError(`--label: ${problem}`);
  checkMerchantId(merchantId);
  const { token, tokenHash } = createRelayToken();
  await inTransaction(db, async (client) => {
    await requireMerchant(client, merchantId);
    const { rowCount } = await client.query(
      'INSERT INTO till_tokens (merchant_id, label, token_hash) VALUES ($1, $2, $3) ON CONFLICT (merchant_id, label) DO NOTHING',
      [merchantId, label, tokenHash],
    );
    if (!rowCount) throw new TenantError(`Merchant ${merchantId} already has a till labelled "${label}" (revoke it first)`);
    await audit(client, actor, { action: 'token.create', merchantId, target: label });
  });
  return token;
}

export async function revokeToken(db: pg.Pool, merchantId: string, label: string, actor = cliActor()): Promise<boolean> {
  checkMerchantId(merchantId);
  return inTransaction(db, async (client) => {
    const { rowCount } = await client.query('DELETE FROM till_tokens WHERE merchant_id = $1 AND label = $2', [merchantId, label]);
    if (!rowCount) return false;
    await audit(client, actor, { action: 'token.revoke', merchantId, target: label });
    return true;
  });
}
