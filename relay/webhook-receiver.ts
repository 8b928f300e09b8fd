/**
 * POST /v1/webhooks: the callbackUrl. Raw body (capped) -> key by X-Service-Key-Id ->
 * signature (shared verifyWebhook, constant time) -> JSON -> webhookBodySchema -> key
 * environment vs data.sandbox -> group commit -> 2xx only once durable.
 * A refused delivery is treated as if it never happened: nothing stored or pushed; it is
 * counted by reason and logged without the body or personal data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { verifyWebhook, WebhookVerificationError } from '../shared/webhook-signature.js';
import { describeZodError, KEY_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookBodySchema } from '../shared/wire/index.js';
import { environmentOfKey, type Environment } from '../shared/wire/keys.js';
import type { RelayConfig } from './config.js';
import type { Delivery } from './event-log.js';
import type { GroupCommitter } from './group-commit.js';
import { BodyTooLargeError, readRawBody, sendError, sendJson, type LogFn } from './http-util.js';
import type { RelayMetrics } from './metrics.js';

export type WebhookReceiverDeps = {
  getConfig: () => RelayConfig;
  committer: GroupCommitter;
  metrics: RelayMetrics;
  now: () => number;
  log: LogFn;
};

type Rejection = { status: 400 | 401 | 413; reason: string; message: string; detail?: Record<string, unknown> };

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A header value safe to log: bounded length, printable characters only. */
function loggable(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.slice(0, 80).replace(/[^\x20-\x7e]/g, '?');
}

export function createWebhookReceiver(deps: WebhookReceiverDeps) {
  const { metrics, log } = deps;

  function reject(res: ServerResponse, keyId: string | undefined, r: Rejection): void {
    metrics.rejected.inc({ reason: r.reason });
    log({ level: 'warn', msg: 'webhook_rejected', reason: r.reason, status: r.status, keyId: loggable(keyId), ...r.detail });
    const code = r.status === 401 ? 'UNAUTHENTICATED' : r.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
    sendError(res, r.status, code, r.message, r.status === 413 ? { connection: 'close' } : {});
  }

  function verifyAndParse(req: IncomingMessage, raw: Buffer, arrivedAt: number): Rejection | Delivery {
    const config = deps.getConfig();
    const keyId = header(req, KEY_ID_HEADER);
    if (!keyId) return { status: 401, reason: 'missing_key_id', message: 'No X-Service-Key-Id header' };
    const key = config.keys.find((k) => k.publicId === keyId);
    if (!key) return { status: 401, reason: 'unknown_key', message: 'Unknown X-Service-Key-Id' };

    let timestamp: number;
    try {
      ({ timestamp } = verifyWebhook({
        rawBody: raw,
        signatureHeader: header(req, SIGNATURE_HEADER),
        timestampHeader: header(req, TIMESTAMP_HEADER),
        secret: key.secret,
        signedPayload: config.signedPayload,
        toleranceSeconds: config.timestampToleranceSeconds,
        now: deps.now,
      }));
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        return { status: 401, reason: err.code.toLowerCase(), message: err.message };
      }
      throw err;
    }

    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return { status: 400, reason: 'malformed_json', message: 'The body is not valid JSON' };
    }
    const parsed = webhookBodySchema.safeParse(json);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
      return { status: 400, reason: 'invalid_body', message: describeZodError(parsed.error), detail: { field } };
    }
    const body = parsed.data;
    const environment = environmentOfKey(key.publicId) as Environment;
    const sandbox = body.data.sandbox === true;
    if (environment === 'test' && !sandbox) {
      return {
        status: 400,
        reason: 'environment_mismatch',
        message: 'A pk_test_ key signed a delivery without data.sandbox: true',
      };
    }
    if (environment === 'live' && sandbox) {
      return {
        status: 400,
        reason: 'environment_mismatch',
        message: 'A pk_live_ key signed a sandbox delivery (data.sandbox: true)',
      };
    }

    const nowSeconds = Math.floor(deps.now() / 1000);
    if (Math.abs(nowSeconds - timestamp) > config.timestampToleranceSeconds) {
      // Only enforced when the timestamp is signed (verifyWebhook did that); flagged otherwise.
      metrics.staleTimestamps.inc({ environment });
      log({ level: 'warn', msg: 'webhook_stale_timestamp', reference: body.data.reference, skewSeconds: nowSeconds - timestamp });
    }

    const transaction = body.data as Record<string, unknown>;
    return {
      reference: body.data.reference,
      clientReference: body.data.clientReference,
      environment,
      keyId: key.publicId,
      receivedAt: new Date(deps.now()).toISOString(),
      webhookCreatedAt: body.createdAt,
      transactionJson: JSON.stringify(transaction),
      timestamp,
      arrivedAt,
    };
  }

  return async function handleWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    const keyId = header(req, KEY_ID_HEADER);
    let raw: Buffer;
    try {
      raw = await readRawBody(req, deps.getConfig().maxBodyBytes);
    } catch (err) {
      if (err instanceof BodyTooLargeError) {
        reject(res, keyId, { status: 413, reason: 'body_too_large', message: err.message });
        return;
      }
      throw err;
    }

    const result = verifyAndParse(req, raw, arrivedAt);
    if ('status' in result) {
      reject(res, keyId, result);
      return;
    }
    const delivery = result;
    let outcome;
    try {
      outcome = await deps.committer.submit(delivery);
    } catch (err) {
      metrics.commitFailures.inc();
      log({ level: 'error', msg: 'commit_failed', reference: delivery.reference, error: (err as Error).message });
      sendError(res, 503, 'INTERNAL', 'Could not store the delivery; retry later', { 'retry-after': '5' });
      return;
    }

    switch (outcome.kind) {
      case 'accepted':
        sendJson(res, 200, { received: true, seq: outcome.seq, duplicate: false });
        return;
      case 'duplicate':
        if (outcome.outOfOrder) {
          metrics.outOfOrder.inc({ environment: delivery.environment });
          log({
            level: 'warn',
            msg: 'webhook_out_of_order',
            reference: delivery.reference,
            timestamp: delivery.timestamp,
            latestTimestamp: outcome.previousTimestamp,
          });
        }
        sendJson(res, 200, { received: true, seq: outcome.seq, duplicate: true });
        return;
      case 'conflict':
        metrics.rejected.inc({ reason: 'conflicting_repeat' });
        metrics.securityAlerts.inc({ kind: 'conflicting_repeat' });
        log({
          level: 'alert',
          msg: 'security_alert',
          kind: 'conflicting_repeat',
          reference: delivery.reference,
          keyId: delivery.keyId,
          environment: delivery.environment,
          storedEnvironment: outcome.storedEnvironment,
          storedSeq: outcome.seq,
          differingFields: outcome.fields,
        });
        sendError(
          res,
          409,
          'DUPLICATE_REFERENCE',
          'This reference already has a different final state; the delivery was not stored',
        );
        return;
    }
  };
}
