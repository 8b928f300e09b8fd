/**
 * POST /v1/webhooks, the callbackUrl: reads each body under a cap, verifies it (verify.ts),
 * hands it to the store's committer and answers 2xx only once it is durable. A refused delivery is
 * treated as if it never happened: nothing stored or pushed; it is counted by reason and logged
 * without the body or personal data. Deliveries are handled in batches: the bodies that finish arriving while the event loop polls
 * the network are queued, and right after the poll (setImmediate) the whole batch is verified and
 * handed to the committer, which commits it in one transaction. Every delivery gets the same checks
 * as one handled alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { sendError } from '../../../shared/http-util.js';
import { KEY_ID_HEADER } from '../../../shared/wire/index.js';
import { CommitError, type ApplyOutcome, type Delivery, type RelayStore, type TenantDelivery } from '../../store/index.js';
import type { WarningSummary } from '../../ops/index.js';
import { reportCommitFailure, reportConflict, reportOutOfOrder, type OutcomeContext } from './delivery-reports.js';
import { requestIdOf } from '../request-id.js';
import { bodyDeadline, clientAddress, sendBodyTimeout } from '../client-limits.js';
import { PendingBodies } from './pending-bodies.js';
import { IncomingWebhook, type BodyReceiver } from './incoming-webhook.js';
import { ERROR_CODE_OF, loggable, sendAck, sendCommitFailed } from './answers.js';
import { DeliveryShare } from './delivery-share.js';
import { checkHeaders, DeliveryVerifier, header, isRejection, type Rejection, type VerifierDeps } from './verify.js';

/** The store looks up keys (in VerifierDeps) and commits deliveries. */
export type WebhookReceiverDeps = VerifierDeps & {
  store: Pick<RelayStore, 'enqueue' | 'flush' | 'noteRejection'>;
  warnings: WarningSummary;
  /** A multi-merchant relay: counts refusals and failed commits per merchant too. */
  perMerchantMetrics?: boolean;
  /** A multi-merchant relay: each merchant's deliveries are held to their share (delivery-share.ts). */
  deliveryShares?: boolean;
};

export type WebhookReceiver = {
  /** Takes a POST /v1/webhooks request; it is answered later, once verified and (if valid) committed. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Requests taken and not yet answered. */
  readonly inFlight: number;
  /** Resolves when no request is in flight (or after `timeoutMs`). */
  whenIdle(timeoutMs: number): Promise<void>;
};

class Receiver implements WebhookReceiver, BodyReceiver {
  private batch: IncomingWebhook[] = [];
  private scheduled = false;
  private inFlightCount = 0;
  readonly pool: PendingBodies;
  private idleWaiters: Array<() => void> = [];
  private readonly runBatch = () => this.process();
  private readonly verifier: DeliveryVerifier;
  private readonly share: DeliveryShare | null;

  constructor(private readonly deps: WebhookReceiverDeps) {
    this.verifier = new DeliveryVerifier(deps);
    this.pool = new PendingBodies(deps.getConfig, deps.metrics);
    this.share = deps.deliveryShares ? new DeliveryShare(deps.getConfig, deps.metrics, deps.now) : null;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  whenIdle(timeoutMs: number): Promise<void> {
    if (this.inFlightCount === 0) return Promise.resolve();
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
    const config = this.deps.getConfig();
    const maxBytes = config.maxBodyBytes;
    const keyId = header(req.headers, KEY_ID_HEADER);
    const [client, tenant] = [clientAddress(req, config.trustedProxies), this.deps.findKey(keyId ?? '')?.merchantId ?? keyId ?? ''];
    const incoming = new IncomingWebhook(this, req, res, keyId, performance.now(), maxBytes, client, tenant);
    this.inFlightCount++;
    // Refused before a byte of the body is read: nothing is buffered for a request that cannot pass.
    const early = checkHeaders(req.headers, keyId, this.deps.findKey);
    if (early) return this.refuse(incoming, early);
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBytes) {
      this.refuse(incoming, { status: 413, reason: 'body_too_large', message: `body of ${declared} bytes exceeds ${maxBytes}` });
      return;
    }
    // Nothing is proved until the whole body is in: it must arrive soon (the service sends it at once).
    const deadline = Math.min(config.unauthenticatedBodyTimeoutMs, config.requestTimeoutMs);
    // A merchant whose share is spent is answered from the headers, the cheapest answer a flood can get: its
    // body is dropped as it arrives, never kept, and the connection stays open for the proxy's next request
    // (one whose body is late is closed).
    const over = this.share?.check(tenant);
    if (over) {
      bodyDeadline(req, deadline, () => req.socket.destroy());
      req.resume();
      return this.refuse(incoming, over, { draining: true });
    }
    bodyDeadline(req, deadline, () => incoming.expired(deadline));
    req.on('data', (chunk: Buffer) => incoming.add(chunk));
    req.on('end', () => incoming.ended());
    req.on('error', (err: Error) => incoming.cutOff(err));
    req.on('close', () => incoming.cutOff());
  }

  /** A body that did not arrive in time (counted and logged once per interval, like every refusal). */
  expire(incoming: IncomingWebhook, ms: number): void {
    this.deps.metrics.clientLimited.inc({ limit: 'unauthenticatedBodyTimeoutMs' });
    this.deps.warnings.warn('webhook_rejected', 'body_timeout', { status: 408, keyId: loggable(incoming.keyId) });
    sendBodyTimeout(incoming.res, ms);
    this.finish();
  }

  /** A complete body: verified with the rest of its batch right after this poll. */
  queue(incoming: IncomingWebhook): void {
    this.batch.push(incoming);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.runBatch);
    }
  }

  private process(): void {
    this.scheduled = false;
    const batch = this.batch;
    this.batch = [];
    const { store } = this.deps;
    for (const incoming of batch) {
      const over = this.share?.check(incoming.tenant);
      if (over) {
        this.refuse(incoming, over);
        continue;
      }
      let result: Rejection | TenantDelivery;
      try {
        result = this.verifier.verify(incoming);
      } catch (err) {
        this.fail(incoming, err as Error);
        continue;
      }
      if (isRejection(result)) this.refuse(incoming, result);
      else {
        incoming.merchantId = result.merchantId;
        this.share?.spend(result.merchantId);
        store.enqueue(result, incoming);
      }
    }
    // Commit the batch now, in this same turn (the SQLite store waits for its window when one is configured).
    store.flush();
  }

  private finish(): void {
    this.inFlightCount--;
    if (this.inFlightCount === 0 && this.idleWaiters.length > 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  refuse(incoming: IncomingWebhook, r: Rejection, { draining = false } = {}): void {
    const { metrics, warnings } = this.deps;
    metrics.rejected.inc({ reason: r.reason });
    if (incoming.keyId) this.deps.store.noteRejection?.(incoming.keyId, r.reason);
    // Known when the key is: a refusal before that (no key, unknown key) names no merchant.
    const merchantId = incoming.keyId === undefined ? undefined : this.deps.findKey(incoming.keyId)?.merchantId;
    if (merchantId !== undefined && this.deps.perMerchantMetrics) metrics.merchantRejected.inc({ merchant: merchantId, reason: r.reason });
    const fields = { status: r.status, keyId: loggable(incoming.keyId), merchantId, requestId: requestIdOf(incoming.req), ...r.detail };
    warnings.warn('webhook_rejected', r.reason, fields);
    // The rest of an unread body is not waited for (unless it is being dropped): the connection closes after the answer.
    const unread = !incoming.req.complete && !draining;
    const headers: Record<string, string> = unread ? { connection: 'close' } : {};
    if (r.status === 503 || r.status === 429) headers['retry-after'] = String(r.retryAfterSeconds ?? 5);
    // nginx keeps an answer marked so (relay/docs/proxies.md caches only those) and strips the header.
    if (r.sameAnswerForSeconds !== undefined) headers['x-accel-expires'] = String(r.sameAnswerForSeconds);
    sendError(incoming.res, r.status, ERROR_CODE_OF[r.status], r.message, headers);
    this.finish();
  }

  /** The client went away (or its stream broke) before the end of its body: nothing to answer. */
  cutOff(incoming: IncomingWebhook, err?: Error): void {
    const requestId = requestIdOf(incoming.req);
    this.deps.log({ level: 'debug', msg: 'webhook_upload_cut_off', requestId, keyId: loggable(incoming.keyId), error: err?.message });
    incoming.res.destroy();
    this.finish();
  }

  /** An unexpected error (a bug): 500, nothing stored. */
  fail(incoming: IncomingWebhook, err: Error): void {
    const requestId = requestIdOf(incoming.req);
    this.deps.log({
      level: 'error',
      msg: 'request_failed',
      path: '/v1/webhooks',
      requestId,
      merchantId: incoming.merchantId,
      error: err.message,
    });
    const { res } = incoming;
    if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
    else res.destroy();
    this.finish();
  }

  /** Answers a delivery once its commit has settled. */
  answer(incoming: IncomingWebhook, err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void {
    const { res } = incoming;
    try {
      if (err || !outcome) {
        reportCommitFailure(this.deps, outcomeContext(incoming), delivery, err);
        sendCommitFailed(res, err instanceof CommitError && err.instanceWide);
      } else if (outcome.kind === 'accepted') {
        sendAck(res, outcome.seq, false);
      } else if (outcome.kind === 'duplicate') {
        if (outcome.outOfOrder) reportOutOfOrder(this.deps, outcomeContext(incoming), delivery, outcome.previousTimestamp);
        sendAck(res, outcome.seq, true);
      } else {
        reportConflict(this.deps, outcomeContext(incoming), delivery, outcome);
        sendError(res, 409, 'DUPLICATE_REFERENCE', 'This reference already has a different final state; the delivery was not stored');
      }
    } finally {
      this.finish();
    }
  }
}

/** What the reports of a delivery's outcome name: its merchant and its request. */
function outcomeContext(incoming: IncomingWebhook): OutcomeContext {
  return { merchantId: incoming.merchantId, requestId: requestIdOf(incoming.req) };
}

export function createWebhookReceiver(deps: WebhookReceiverDeps): WebhookReceiver {
  return new Receiver(deps);
}
