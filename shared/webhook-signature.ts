/**
 * Webhook signatures: `X-Service-Signature: v1=<hex>`, HMAC-SHA256 keyed by the secret key.
 *
 * The spec does not say whether the timestamp is signed, so what is signed is a setting used
 * identically by the simulator and the relay (docs/provider-contract.md):
 *   - "body"           (default, as the spec's wording says): the raw body bytes
 *   - "timestamp.body": `<X-Service-Timestamp>.<raw body bytes>`
 *
 * Verification takes the raw bytes, never a parsed body, compares in constant time and takes an
 * injected clock, after stripe-node's webhook code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNED_PAYLOADS = ['body', 'timestamp.body'] as const;
export type SignedPayload = (typeof SIGNED_PAYLOADS)[number];
export const SIGNATURE_SCHEME = 'v1';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationCode =
  | 'NOT_RAW_BODY'
  | 'MISSING_SIGNATURE'
  | 'MALFORMED_SIGNATURE'
  | 'UNKNOWN_SCHEME'
  | 'MISSING_TIMESTAMP'
  | 'MALFORMED_TIMESTAMP'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'SIGNATURE_MISMATCH';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly code: WebhookVerificationCode,
    message: string,
  ) {
    super(message);
  }
}

export type RawBody = Buffer | Uint8Array | string;

function toBuffer(rawBody: unknown): Buffer {
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  throw new WebhookVerificationError(
    'NOT_RAW_BODY',
    'Webhook payload must be the raw request body (Buffer or string), exactly as received. ' +
      'A parsed JSON object was passed: re-serialising it changes the bytes and the signature cannot match.',
  );
}

function signedBytes(rawBody: Buffer, timestamp: string, signedPayload: SignedPayload): Buffer {
  // A misspelt setting (e.g. from a config file) must not silently pick one of the two schemes.
  if (!SIGNED_PAYLOADS.includes(signedPayload)) {
    throw new TypeError(`signedPayload must be "body" or "timestamp.body", not ${JSON.stringify(signedPayload)}`);
  }
  if (signedPayload === 'body') return rawBody;
  return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), rawBody]);
}

/** An empty secret is a configuration error: anyone could forge an HMAC keyed by "". */
function assertSecret(secret: unknown): void {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('The webhook secret (the sk_… secret key) is missing or empty: check the configuration.');
  }
}

/** The hex HMAC-SHA256 digest (without the scheme tag). */
export function computeSignatureHex(secret: string, rawBody: RawBody, timestamp: string, signedPayload: SignedPayload = 'body'): string {
  assertSecret(secret);
  return createHmac('sha256', secret)
    .update(signedBytes(toBuffer(rawBody), timestamp, signedPayload))
    .digest('hex');
}

/** Signs a delivery: returns the X-Service-Signature header value `v1=<hex>`. */
export function signWebhook(options: {
  secret: string;
  rawBody: RawBody;
  timestamp: string | number;
  signedPayload?: SignedPayload;
}): string {
  const timestamp = String(options.timestamp);
  return `${SIGNATURE_SCHEME}=${computeSignatureHex(options.secret, options.rawBody, timestamp, options.signedPayload ?? 'body')}`;
}

export type VerifyWebhookOptions = {
  rawBody: RawBody;
  signatureHeader: string | undefined | null;
  timestampHeader: string | undefined | null;
  secret: string;
  signedPayload?: SignedPayload;
  /** Seconds; only enforced when the timestamp is part of the signed payload (it is otherwise unauthenticated). */
  toleranceSeconds?: number;
  /** Injected clock, milliseconds since the epoch. */
  now?: () => number;
};

/**
 * The checks that need only the headers (so a server can refuse before reading the body): the
 * signature's shape and the timestamp's. Returns the digest and the timestamp text; throws
 * WebhookVerificationError otherwise.
 */
export function checkSignatureHeaders(header: string | undefined | null, ts: string | undefined | null): { hex: string; ts: string } {
  if (!header) throw new WebhookVerificationError('MISSING_SIGNATURE', 'No X-Service-Signature header');
  const eq = header.indexOf('=');
  if (eq <= 0) throw new WebhookVerificationError('MALFORMED_SIGNATURE', 'X-Service-Signature must look like v1=<hex>');
  const scheme = header.slice(0, eq);
  const hex = header.slice(eq + 1);
  if (scheme !== SIGNATURE_SCHEME) {
    throw new WebhookVerificationError('UNKNOWN_SCHEME', `Unsupported signature scheme "${scheme}" (expected v1)`);
  }
  if (!/^[0-9a-f]{64}$/i.test(hex)) {
    throw new WebhookVerificationError('MALFORMED_SIGNATURE', 'X-Service-Signature digest must be 64 hex digits');
  }
  if (ts === undefined || ts === null || ts === '') {
    throw new WebhookVerificationError('MISSING_TIMESTAMP', 'No X-Service-Timestamp header');
  }
  if (!/^[0-9]{1,12}$/.test(ts)) {
    throw new WebhookVerificationError('MALFORMED_TIMESTAMP', 'X-Service-Timestamp must be Unix seconds');
  }
  return { hex, ts };
}

/**
 * Verifies a delivery. Returns the timestamp (Unix seconds) on success; throws
 * WebhookVerificationError with a code and a clear message otherwise.
 */
export function verifyWebhook(options: VerifyWebhookOptions): { timestamp: number } {
  const rawBody = toBuffer(options.rawBody);
  const signedPayload = options.signedPayload ?? 'body';
  assertSecret(options.secret);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  // NaN (e.g. Number(undefined) from a config) would make every comparison false: no replay protection.
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError(`toleranceSeconds must be a finite number of seconds >= 0, not ${String(tolerance)}`);
  }
  const { hex, ts } = checkSignatureHeaders(options.signatureHeader, options.timestampHeader);
  const expected = Buffer.from(computeSignatureHex(options.secret, rawBody, ts, signedPayload), 'hex');
  const given = Buffer.from(hex, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookVerificationError('SIGNATURE_MISMATCH', 'Signature does not match the body');
  }
  const timestamp = Number(ts);
  if (signedPayload === 'timestamp.body') {
    const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
    if (Math.abs(nowSeconds - timestamp) > tolerance) {
      throw new WebhookVerificationError(
        'TIMESTAMP_OUT_OF_TOLERANCE',
        `X-Service-Timestamp is ${nowSeconds - timestamp}s from now; the tolerance is ${tolerance}s`,
      );
    }
  }
  return { timestamp };
}
