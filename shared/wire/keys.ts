/** Shapes of merchant ids and API keys (spec 2.2, 2.3, 5). */
import { z } from 'zod';
import type { Environment } from '../domain.js';

export const MERCHANT_ID = /^MCH_[A-Za-z0-9]{12}$/;
export const PUBLIC_KEY_ID = /^pk_(test|live)_[A-Za-z0-9]{8,64}$/;
export const SECRET_KEY = /^sk_(test|live)_[A-Za-z0-9]{16,128}$/;

export const merchantIdSchema = z.string().regex(MERCHANT_ID, 'Merchant ID looks like MCH_ followed by 12 letters or digits');
export const publicKeyIdSchema = z.string().regex(PUBLIC_KEY_ID, 'Public key id looks like pk_test_… or pk_live_…');
export const secretKeySchema = z.string().regex(SECRET_KEY, 'Secret key looks like sk_test_… or sk_live_…');

export function environmentOfKey(key: string): Environment | null {
  const m = /^(?:pk|sk)_(test|live)_/.exec(key);
  return m ? (m[1] as Environment) : null;
}

/** `sk_live_••••abcd`: what the renderer and logs may see of a secret. */
export function maskSecret(secret: string | null | undefined): string | null {
  if (!secret) return null;
  const m = /^(sk_(?:test|live)_)/.exec(secret);
  const prefix = m ? (m[1] as string) : '';
  // Show the last four characters only when they are a small part of a full-length secret:
  // a short (malformed) secret would otherwise be shown whole or nearly whole.
  const rest = secret.slice(prefix.length);
  return rest.length >= 16 ? `${prefix}••••${rest.slice(-4)}` : `${prefix}••••`;
}

/** Authorization header value: `Bearer <SECRET_KEY>`. */
export const authorizationHeaderSchema = z
  .string()
  .regex(/^Bearer sk_(test|live)_[A-Za-z0-9]{16,128}$/, 'Authorization must be "Bearer sk_test_…" or "Bearer sk_live_…"');
