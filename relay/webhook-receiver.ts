/**
 * POST /v1/webhooks: the callbackUrl. Raw body (capped) -> key by X-Service-Key-Id ->
 * signature (shared verifyWebhook, constant time) -> JSON -> webhookBodySchema -> key
 * environment vs data.sandbox -> group commit -> 2xx only once durable.
 * A refused delivery is treated as if it never happened: nothing stored or pushed; it is
 * counted by reason and logged without the body or personal data.
 *
 * Deliveries are handled in batches: the bodies that finish arriving while the event loop polls
 * the network are queued, and right after the poll (setImmediate) the whole batch is verified,
 * validated, committed in one transaction and answered, in tight loops. Every delivery gets the
 * same checks as one handled alone; the batch only keeps the code and data of each step hot in
 * the CPU caches, and the commit is one fsync for the lot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { verifyWebhook, WebhookVerificationError } from '../shared/webhook-signature.js';
import { KEY_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookBodySchema } from '../shared/wire/index.js';
import { describeZodError } from '../shared/zod-error.js';
import type { Environment } from '../shared/domain.js';
import { environmentOfKey } from '../shared/wire/keys.js';
import type { RelayConfig } from './config.js';
import type { ApplyOutcome, Delivery } from './event-log.js';
import type { CommitWaiter, GroupCommitter } from './group-commit.js';
import { sendError, type LogFn } from './http-util.js';
import type { RelayMetrics } from './metrics.js';

export type WebhookReceiverDeps = {
  getConfig: () => RelayConfig;
  committer: GroupCommitter;
  metrics: RelayMetrics;
  now: () => number;
  log: LogFn;
};

export type WebhookReceiver = {
  /** Takes a POST /v1/webhooks request; it is answered later, once verified and (if valid) committed. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Requests taken and not yet answered. */
  readonly inFlight: number;
  /** Resolves when no request is in flight (or after `timeoutMs`). */
  whenIdle(timeoutMs: number): Promise<void>;
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

/** The acknowledgement: fixed headers, small body. */
function sendAck(res: ServerResponse, seq: number, duplicate: boolean): void {
  const body = `{"received":true,"seq":${seq},"duplicate":${duplicate}}`;
  // An object literal: node:http's fastest path (an array of headers goes through setHeader one by one).
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
  res.end(body);
}

const PENDING = Symbol('pendingWebhook');
type WebhookRequest = IncomingMessage & { [PENDING]?: PendingWebhook };

/** Stream listeners shared by every request (no closures per request); the state hangs on the request. */
function onData(this: WebhookRequest, chunk: Buffer): void {
  this[PENDING]?.add(chunk);
}
function onEnd(this: WebhookRequest): void {
  this[PENDING]?.ended();
}
function onError(this: WebhookRequest, err: Error): void {
  this[PENDING]?.failed(err);
}

/** One delivery from its first byte to its answer. */
class PendingWebhook implements CommitWaiter {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body is complete, refused or broken: later stream events are ignored. */
  private settledBody = false;
  raw: Buffer | null = null;

  constructor(
    private readonly receiver: Receiver,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly keyId: string | undefined,
    readonly arrivedAt: number,
    private readonly maxBytes: number,
  ) {}

  add(chunk: Buffer): void {
    if (this.settledBody) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.settledBody = true;
      this.chunks = [];
      this.receiver.refuse(this, { status: 413, reason: 'body_too_large', message: `body exceeds ${this.maxBytes} bytes` });
      return;
    }
    this.chunks.push(chunk);
  }

  ended(): void {
    if (this.settledBody) return;
    this.settledBody = true;
    const chunks = this.chunks;
    this.raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.size);
    this.chunks = [];
    this.receiver.queue(this);
  }

  failed(err: Error): void {
    if (this.settledBody) return;
    this.settledBody = true;
    this.receiver.fail(this, err);
  }

  /** The commit's verdict (CommitWaiter). */
  settle(err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void {
    this.receiver.answer(this, err, outcome, delivery);
  }
}

class Receiver implements WebhookReceiver {
  private batch: PendingWebhook[] = [];
  private scheduled = false;
  private pending = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly runBatch = () => this.process();
  /** receivedAt of the last delivery: many in a batch share the millisecond. */
  private isoMs = -1;
  private isoText = '';

  constructor(private readonly deps: WebhookReceiverDeps) {}

  get inFlight(): number {
    return this.pending;
  }

  whenIdle(timeoutMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const arrivedAt = performance.now();
    const keyId = header(req, KEY_ID_HEADER);
    const maxBytes = this.deps.getConfig().maxBodyBytes;
    const pending = new PendingWebhook(this, req, res, keyId, arrivedAt, maxBytes);
    this.pending++;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) {
      this.refuse(pending, { status: 413, reason: 'body_too_large', message: `body of ${declared} bytes exceeds ${maxBytes}` });
      return;
    }
    const r = req as WebhookRequest;
    r[PENDING] = pending;
    r.on('data', onData);
    r.on('end', onEnd);
    r.on('error', onError);
  }

  /** A complete body: verified with the rest of its batch right after this poll. */
  queue(pending: PendingWebhook): void {
    this.batch.push(pending);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.runBatch);
    }
  }

  private process(): void {
    this.scheduled = false;
    const batch = this.batch;
    this.batch = [];
    const { committer } = this.deps;
    for (const pending of batch) {
      let result: Rejection | Delivery;
      try {
        result = this.verifyAndParse(pending);
      } catch (err) {
        this.fail(pending, err as Error);
        continue;
      }
      if ('status' in result) this.refuse(pending, result);
      else committer.enqueue(result, pending);
    }
    // Commit the batch now, in this same turn (unless a commit window is configured).
    if (!committer.windowed) committer.flush();
  }

  private finish(): void {
    this.pending--;
    if (this.pending === 0 && this.idleWaiters.length > 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  refuse(pending: PendingWebhook, r: Rejection): void {
    const { metrics, log } = this.deps;
    metrics.rejected.inc({ reason: r.reason });
    log({ level: 'warn', msg: 'webhook_rejected', reason: r.reason, status: r.status, keyId: loggable(pending.keyId), ...r.detail });
    const code = r.status === 401 ? 'UNAUTHENTICATED' : r.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
    sendError(pending.res, r.status, code, r.message, r.status === 413 ? { connection: 'close' } : {});
    this.finish();
  }

  /** An unexpected error (a broken request stream, a bug): 500, nothing stored. */
  fail(pending: PendingWebhook, err: Error): void {
    this.deps.log({ level: 'error', msg: 'request_failed', path: '/v1/webhooks', error: err.message });
    const { res } = pending;
    if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
    else res.destroy();
    this.finish();
  }

  private verifyAndParse(pending: PendingWebhook): Rejection | Delivery {
    const { req, keyId } = pending;
    const raw = pending.raw as Buffer;
    const { deps } = this;
    const config = deps.getConfig();
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

    const nowMs = deps.now();
    const nowSeconds = Math.floor(nowMs / 1000);
    if (Math.abs(nowSeconds - timestamp) > config.timestampToleranceSeconds) {
      // Only enforced when the timestamp is signed (verifyWebhook did that); flagged otherwise.
      deps.metrics.staleTimestamps.inc({ environment });
      deps.log({ level: 'warn', msg: 'webhook_stale_timestamp', reference: body.data.reference, skewSeconds: nowSeconds - timestamp });
    }

    return {
      reference: body.data.reference,
      clientReference: body.data.clientReference,
      environment,
      keyId: key.publicId,
      receivedAt: this.isoAt(nowMs),
      webhookCreatedAt: body.createdAt,
      // The validated `data` object (zod's output: the checked fields and any extra ones).
      transactionJson: JSON.stringify(body.data),
      timestamp,
      arrivedAt: pending.arrivedAt,
    };
  }

  private isoAt(ms: number): string {
    if (ms !== this.isoMs) {
      this.isoMs = ms;
      this.isoText = new Date(ms).toISOString();
    }
    return this.isoText;
  }

  /** Answers a delivery once its commit has settled. */
  answer(pending: PendingWebhook, err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void {
    const { metrics, log } = this.deps;
    const { res } = pending;
    try {
      if (err || !outcome) {
        metrics.commitFailures.inc();
        log({ level: 'error', msg: 'commit_failed', reference: delivery.reference, error: err?.message });
        sendError(res, 503, 'INTERNAL', 'Could not store the delivery; retry later', { 'retry-after': '5' });
        return;
      }
      switch (outcome.kind) {
        case 'accepted':
          sendAck(res, outcome.seq, false);
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
          sendAck(res, outcome.seq, true);
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
          sendError(res, 409, 'DUPLICATE_REFERENCE', 'This reference already has a different final state; the delivery was not stored');
          return;
      }
    } finally {
      this.finish();
    }
  }
}

export function createWebhookReceiver(deps: WebhookReceiverDeps): WebhookReceiver {
  return new Receiver(deps);
}
