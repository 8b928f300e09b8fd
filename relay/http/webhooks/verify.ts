/**
 * Where a delivery is verified: key by X-Service-Key-Id -> signature on the raw bytes (shared
 * verifyWebhook, constant time) -> JSON -> webhookBodySchema -> key environment vs data.sandbox.
 * The result is a Delivery ready for the store (relay/store/relay-store.ts), or the reason it was refused.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { checkSignatureHeaders, verifyWebhook, WebhookVerificationError } from '../../../shared/webhook-signature.js';
import { hasInvisibleCharacters } from '../../../shared/characters.js';
import type { Environment } from '../../../shared/domain.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookBodySchema, type WebhookBody } from '../../../shared/wire/index.js';
import { environmentOfKey } from '../../../shared/wire/keys.js';
import { describeZodError } from '../../../shared/zod-error.js';
import type { RelayConfig, LogFn, RelayMetrics } from '../../ops/index.js';
import { MERCHANT_SUSPENDED } from '../refusals.js';
import {
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  ownerSummaryRow,
  unstorableField,
  type ServiceKey,
  type TenantDelivery,
} from '../../store/index.js';

export type Rejection = {
  status: 400 | 401 | 403 | 413 | 429 | 503;
  reason: string;
  message: string;
  detail?: Record<string, unknown>;
  /** 429 and 503: the seconds the client should wait (5 unless said). */
  retryAfterSeconds?: number;
  /**
   * The seconds for which every delivery under the same key id (with well-formed headers) would get this same
   * answer, whoever sends it: a caching proxy in front may give it again without asking (X-Accel-Expires,
   * relay/docs/proxies.md).
   */
  sameAnswerForSeconds?: number;
};

/** One request's parts that verification reads. */
export type ReceivedWebhook = { headers: IncomingHttpHeaders; keyId: string | undefined; raw: Buffer; arrivedAt: number };

export type VerifierDeps = {
  getConfig: () => RelayConfig;
  /** The key named by a delivery, and the merchant it belongs to (from memory: no I/O here). */
  findKey: (publicId: string) => ServiceKey | undefined;
  now: () => number;
  metrics: RelayMetrics;
  log: LogFn;
};

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isRejection<T extends object>(value: T | Rejection): value is Rejection {
  return 'status' in value && 'reason' in value;
}

/** The key named by X-Service-Key-Id: its secret, and the merchant the delivery is stored for. */
function keyOf(lookup: VerifierDeps['findKey'], keyId: string | undefined): ServiceKey | Rejection {
  if (!keyId) return { status: 401, reason: 'missing_key_id', message: 'No X-Service-Key-Id header' };
  const key = lookup(keyId);
  if (!key) return { status: 401, reason: 'unknown_key', message: 'Unknown X-Service-Key-Id' };
  // A suspended merchant's deliveries are not stored; 403 (refusals.ts): the service retries any non-2xx.
  if (key.suspended) return { status: MERCHANT_SUSPENDED.status, reason: 'merchant_suspended', message: MERCHANT_SUSPENDED.message };
  return key;
}

function verificationRejection(err: unknown): Rejection {
  if (err instanceof WebhookVerificationError) return { status: 401, reason: err.code.toLowerCase(), message: err.message };
  throw err;
}

/**
 * What can be refused from the headers alone, before a byte of the body is read: a missing or
 * unknown key id, a missing or malformed signature, a missing or malformed timestamp.
 */
export function checkHeaders(headers: IncomingHttpHeaders, keyId: string | undefined, lookup: VerifierDeps['findKey']): Rejection | null {
  const key = keyOf(lookup, keyId);
  if (isRejection(key)) return key;
  try {
    checkSignatureHeaders(header(headers, SIGNATURE_HEADER), header(headers, TIMESTAMP_HEADER));
    return null;
  } catch (err) {
    return verificationRejection(err);
  }
}

/** References are shown to cashiers and matched by tills: no invisible, format or reordering characters. */
function checkCharacters(body: WebhookBody): Rejection | null {
  for (const field of ['reference', 'clientReference'] as const) {
    const value = body.data[field];
    if (typeof value === 'string' && hasInvisibleCharacters(value)) {
      const message = `data.${field}: must not hold control, invisible or format characters (Unicode Cc, Cf, Zl, Zp, Hangul fillers)`;
      return { status: 400, reason: 'invalid_characters', message, detail: { field: `data.${field}` } };
    }
  }
  return null;
}

/**
 * Refused before it is acknowledged, the same way every time (store/storable.ts). The whole body is
 * looked at, not only what the schema names: `data` keeps any extra field.
 */
function checkStorable(raw: Buffer, body: WebhookBody): Rejection | null {
  // Valid JSON holds neither but as a `\u` escape: most bodies skip the walk.
  if (!raw.includes('\\u')) return null;
  const field = unstorableField(body);
  if (field === null) return null;
  const message = `${field}: holds a character no store can keep (U+0000 or an unpaired surrogate)`;
  return { status: 400, reason: 'unstorable_characters', message, detail: { field } };
}

/** The signature over the raw bytes; the signed (or only claimed) timestamp, Unix seconds. */
function checkSignature(
  incoming: ReceivedWebhook,
  key: ServiceKey,
  config: RelayConfig,
  now: () => number,
): { timestamp: number } | Rejection {
  try {
    return verifyWebhook({
      rawBody: incoming.raw,
      signatureHeader: header(incoming.headers, SIGNATURE_HEADER),
      timestampHeader: header(incoming.headers, TIMESTAMP_HEADER),
      secret: key.secret,
      signedPayload: config.signedPayload,
      toleranceSeconds: config.timestampToleranceSeconds,
      now,
    });
  } catch (err) {
    return verificationRejection(err);
  }
}

function parseBody(raw: Buffer): { body: WebhookBody } | Rejection {
  if (nestedDeeperThan(raw, MAX_JSON_DEPTH)) {
    return { status: 400, reason: 'too_deep', message: `The body is nested deeper than ${MAX_JSON_DEPTH} levels` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { status: 400, reason: 'malformed_json', message: 'The body is not valid JSON' };
  }
  const parsed = webhookBodySchema.safeParse(json);
  if (parsed.success) return { body: parsed.data };
  const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
  return { status: 400, reason: 'invalid_body', message: describeZodError(parsed.error), detail: { field } };
}

/** A test key signs sandbox deliveries only, a live key live ones only. */
function checkEnvironment(key: ServiceKey, body: WebhookBody): { environment: Environment } | Rejection {
  const environment = environmentOfKey(key.publicId) as Environment;
  const sandbox = body.data.sandbox === true;
  if (environment === 'test' && !sandbox) {
    return { status: 400, reason: 'environment_mismatch', message: 'A pk_test_ key signed a delivery without data.sandbox: true' };
  }
  if (environment === 'live' && sandbox) {
    return { status: 400, reason: 'environment_mismatch', message: 'A pk_live_ key signed a sandbox delivery (data.sandbox: true)' };
  }
  return { environment };
}

export class DeliveryVerifier {
  /** receivedAt of the last delivery: many in a batch share the millisecond. */
  private isoMs = -1;
  private isoText = '';

  constructor(private readonly deps: VerifierDeps) {}

  verify(incoming: ReceivedWebhook): TenantDelivery | Rejection {
    const config = this.deps.getConfig();
    const key = keyOf(this.deps.findKey, incoming.keyId);
    if (isRejection(key)) return key;
    const signed = checkSignature(incoming, key, config, this.deps.now);
    if (isRejection(signed)) return signed;
    const parsed = parseBody(incoming.raw);
    if (isRejection(parsed)) return parsed;
    const odd = checkCharacters(parsed.body) ?? checkStorable(incoming.raw, parsed.body);
    if (odd) return odd;
    const checked = checkEnvironment(key, parsed.body);
    if (isRejection(checked)) return checked;
    const { body } = parsed;
    const nowMs = this.deps.now();
    const receivedAt = this.isoAt(nowMs);
    this.flagStaleTimestamp(config, signed.timestamp, nowMs, checked.environment, body.data.reference, key.merchantId);
    return {
      merchantId: key.merchantId,
      reference: body.data.reference,
      clientReference: body.data.clientReference,
      environment: checked.environment,
      keyId: key.publicId,
      receivedAt,
      webhookCreatedAt: body.createdAt,
      // The validated `data` object (zod's output: the checked fields and any extra ones).
      transactionJson: JSON.stringify(body.data),
      timestamp: signed.timestamp,
      arrivedAt: incoming.arrivedAt,
      // Worked out here, from the object already parsed, so the commit only adds numbers (store/owner-summary.ts).
      summary: ownerSummaryRow(body.data, receivedAt, nowMs),
    };
  }

  /** An unsigned timestamp cannot be enforced (verifyWebhook enforces a signed one): flagged only. */
  private flagStaleTimestamp(
    config: RelayConfig,
    timestamp: number,
    nowMs: number,
    environment: Environment,
    reference: string,
    merchantId: string,
  ): void {
    const nowSeconds = Math.floor(nowMs / 1000);
    if (Math.abs(nowSeconds - timestamp) <= config.timestampToleranceSeconds) return;
    this.deps.metrics.staleTimestamps.inc({ environment });
    this.deps.log({ level: 'warn', msg: 'webhook_stale_timestamp', merchantId, reference, skewSeconds: nowSeconds - timestamp });
  }

  private isoAt(ms: number): string {
    if (ms !== this.isoMs) {
      this.isoMs = ms;
      this.isoText = new Date(ms).toISOString();
    }
    return this.isoText;
  }
}
