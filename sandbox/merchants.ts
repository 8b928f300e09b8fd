/**
 * Merchants, their status (spec 3.2) and their API keys (spec 2.2): creation rules, revocation and
 * authentication of API requests (spec 5).
 */
import type { Db } from './db.js';
import { newKeyPair, newMerchantId, SecretBox, sha256Hex } from './secrets.js';
import type { Environment } from '../shared/domain.js';
import { MERCHANT_ID } from '../shared/wire/keys.js';

export const MERCHANT_STATUSES = ['PENDING_REVIEW', 'APPROVED', 'SUSPENDED', 'REJECTED'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

export type MerchantRow = { id: string; name: string; status: MerchantStatus; is_demo: number; created_at: number };
export type KeyRow = {
  public_id: string;
  merchant_id: string;
  environment: Environment;
  secret_last4: string;
  is_demo: number;
  created_at: number;
  revoked_at: number | null;
};

export class KeyCreationForbidden extends Error {}

/** Why a merchant in this status may not create a key of this environment, or null when it may. */
export function keyCreationBlock(status: MerchantStatus, environment: Environment): string | null {
  if (status === 'SUSPENDED' || status === 'REJECTED') {
    return `Key creation is disabled while the merchant is ${status === 'SUSPENDED' ? 'Suspended' : 'Rejected'}`;
  }
  if (status === 'PENDING_REVIEW' && environment === 'live') {
    return 'Live keys are locked while the merchant is Pending review';
  }
  return null;
}

export type AuthResult = { ok: true; merchantId: string; publicId: string; environment: Environment } | { ok: false; message: string };

export class MerchantStore {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  createMerchant(name: string, status: MerchantStatus = 'PENDING_REVIEW', isDemo = false): MerchantRow {
    const row: MerchantRow = { id: newMerchantId(), name, status, is_demo: isDemo ? 1 : 0, created_at: this.now() };
    this.db
      .prepare('INSERT INTO merchants (id, name, status, is_demo, created_at) VALUES (@id, @name, @status, @is_demo, @created_at)')
      .run(row);
    return row;
  }

  getMerchant(id: string): MerchantRow | undefined {
    return this.db.prepare('SELECT * FROM merchants WHERE id = ?').get(id) as MerchantRow | undefined;
  }

  listMerchants(): MerchantRow[] {
    return this.db.prepare('SELECT * FROM merchants ORDER BY created_at, id').all() as MerchantRow[];
  }

  setStatus(id: string, status: MerchantStatus): MerchantRow | undefined {
    this.db.prepare('UPDATE merchants SET status = ? WHERE id = ?').run(status, id);
    return this.getMerchant(id);
  }

  /** Creates a key pair; the secret is returned here and never again (except the demo keys, see README). */
  createKey(merchantId: string, environment: Environment, isDemo = false): { publicId: string; secret: string; row: KeyRow } {
    const merchant = this.getMerchant(merchantId);
    if (!merchant) throw new Error(`No merchant ${merchantId}`);
    const block = keyCreationBlock(merchant.status, environment);
    if (block) throw new KeyCreationForbidden(block);
    const { publicId, secret } = newKeyPair(environment);
    const row: KeyRow = {
      public_id: publicId,
      merchant_id: merchantId,
      environment,
      secret_last4: secret.slice(-4),
      is_demo: isDemo ? 1 : 0,
      created_at: this.now(),
      revoked_at: null,
    };
    this.db
      .prepare(
        `INSERT INTO api_keys (public_id, merchant_id, environment, secret_sha256, secret_encrypted, secret_last4, is_demo, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        publicId,
        merchantId,
        environment,
        sha256Hex(secret),
        this.box.encrypt(secret, publicId),
        row.secret_last4,
        row.is_demo,
        row.created_at,
      );
    return { publicId, secret, row };
  }

  getKey(publicId: string): KeyRow | undefined {
    return this.db
      .prepare(
        'SELECT public_id, merchant_id, environment, secret_last4, is_demo, created_at, revoked_at FROM api_keys WHERE public_id = ?',
      )
      .get(publicId) as KeyRow | undefined;
  }

  listKeys(merchantId: string): KeyRow[] {
    return this.db
      .prepare(
        'SELECT public_id, merchant_id, environment, secret_last4, is_demo, created_at, revoked_at FROM api_keys WHERE merchant_id = ? ORDER BY created_at, public_id',
      )
      .all(merchantId) as KeyRow[];
  }

  revokeKey(publicId: string): KeyRow | undefined {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE public_id = ? AND revoked_at IS NULL').run(this.now(), publicId);
    return this.getKey(publicId);
  }

  /** The secret of a key, decrypted, for signing webhooks. */
  secretOf(publicId: string): string {
    const row = this.db.prepare('SELECT secret_encrypted FROM api_keys WHERE public_id = ?').get(publicId) as
      { secret_encrypted: Buffer } | undefined;
    if (!row) throw new Error(`No key ${publicId}`);
    return this.box.decrypt(row.secret_encrypted, publicId);
  }

  /** The demo merchant and its two keys, created on the first start of a data dir. */
  ensureDemo(): { merchantId: string; keys: Record<Environment, { publicId: string; secret: string }> } {
    let merchant = this.db.prepare('SELECT * FROM merchants WHERE is_demo = 1 LIMIT 1').get() as MerchantRow | undefined;
    if (!merchant) {
      merchant = this.db.transaction(() => {
        const m = this.createMerchant('Demo Shop', 'APPROVED', true);
        this.createKey(m.id, 'test', true);
        this.createKey(m.id, 'live', true);
        return m;
      })();
    }
    const keyOf = (environment: Environment) => {
      const row = this.db
        .prepare('SELECT public_id FROM api_keys WHERE merchant_id = ? AND environment = ? AND is_demo = 1 ORDER BY created_at LIMIT 1')
        .get(merchant.id, environment) as { public_id: string } | undefined;
      if (!row) throw new Error(`Demo ${environment} key missing from the data dir`);
      return { publicId: row.public_id, secret: this.secretOf(row.public_id) };
    };
    return { merchantId: merchant.id, keys: { test: keyOf('test'), live: keyOf('live') } };
  }

  /** Spec 5: both headers, a known unrevoked key of that merchant, a merchant whose keys are connected. */
  authenticate(authorization: string | undefined, merchantHeader: string | undefined): AuthResult {
    if (!authorization) return { ok: false, message: 'Missing Authorization header (expected "Bearer sk_test_…" or "Bearer sk_live_…")' };
    const match = /^Bearer (sk_(?:test|live)_[A-Za-z0-9]{16,128})$/.exec(authorization);
    if (!match) return { ok: false, message: 'Authorization must be "Bearer sk_test_…" or "Bearer sk_live_…"' };
    if (!merchantHeader) return { ok: false, message: 'Missing X-Service-Merchant-Id header' };
    if (!MERCHANT_ID.test(merchantHeader))
      return { ok: false, message: 'X-Service-Merchant-Id must look like MCH_ followed by 12 letters or digits' };
    const key = this.db
      .prepare('SELECT public_id, merchant_id, environment, revoked_at FROM api_keys WHERE secret_sha256 = ?')
      .get(sha256Hex(match[1] as string)) as Pick<KeyRow, 'public_id' | 'merchant_id' | 'environment' | 'revoked_at'> | undefined;
    if (!key) return { ok: false, message: 'Invalid API key' };
    if (key.revoked_at !== null) return { ok: false, message: 'This API key has been revoked' };
    if (key.merchant_id !== merchantHeader) return { ok: false, message: 'The API key does not belong to this merchant' };
    const merchant = this.getMerchant(key.merchant_id);
    if (!merchant) return { ok: false, message: 'Unknown merchant' };
    if (merchant.status === 'SUSPENDED' || merchant.status === 'REJECTED') {
      return {
        ok: false,
        message: `The merchant account is ${merchant.status === 'SUSPENDED' ? 'Suspended' : 'Rejected'}; its keys are disconnected`,
      };
    }
    if (merchant.status === 'PENDING_REVIEW' && key.environment === 'live') {
      return { ok: false, message: 'Live keys are locked while the merchant is Pending review' };
    }
    return { ok: true, merchantId: key.merchant_id, publicId: key.public_id, environment: key.environment };
  }
}
