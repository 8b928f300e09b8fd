/** One delivery to POST /v1/webhooks, from its first byte to its answer (receiver.ts takes it from there). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApplyOutcome, CommitWaiter, Delivery } from '../../store/index.js';
import type { PendingBodies } from './pending-bodies.js';
import type { Rejection } from './verify.js';

/** What a delivery's body reports to the receiver as it arrives. */
export type BodyReceiver = {
  readonly pool: PendingBodies;
  refuse(incoming: IncomingWebhook, r: Rejection): void;
  queue(incoming: IncomingWebhook): void;
  expire(incoming: IncomingWebhook, ms: number): void;
  cutOff(incoming: IncomingWebhook, err?: Error): void;
  answer(incoming: IncomingWebhook, err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void;
};

/** One delivery from its first byte to its answer; also its commit waiter. */
export class IncomingWebhook implements CommitWaiter {
  private chunks: Buffer[] = [];
  private size = 0;
  /** The body is complete, refused or broken: later stream events are ignored. */
  private settledBody = false;
  /** Bytes of this body counted in the receiver's pool of pending bodies. */
  private held = 0;
  raw: Buffer = Buffer.alloc(0);
  /** The merchant, once the delivery is verified (its key names it). */
  merchantId: string | undefined;

  constructor(
    private readonly receiver: BodyReceiver,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly keyId: string | undefined,
    readonly arrivedAt: number,
    private readonly maxBytes: number,
    /** Who sent it (client-limits.ts) and its key's merchant (known before a byte is read): each has its share of the pending pool. */
    readonly client: string,
    readonly tenant: string,
  ) {}

  get headers() {
    return this.req.headers;
  }

  add(chunk: Buffer): void {
    if (this.settledBody) return;
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      this.stopBody();
      this.receiver.refuse(this, { status: 413, reason: 'body_too_large', message: `body exceeds ${this.maxBytes} bytes` });
      return;
    }
    const full = this.receiver.pool.hold(this.client, this.tenant, chunk.length);
    if (full) {
      this.stopBody();
      this.receiver.refuse(this, full);
      return;
    }
    this.held += chunk.length;
    this.chunks.push(chunk);
  }

  ended(): void {
    if (this.settledBody) return;
    const chunks = this.chunks;
    this.raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.size);
    this.stopBody();
    this.receiver.queue(this);
  }

  /** The body did not arrive within unauthenticatedBodyTimeoutMs: 408, its bytes released, the connection closed. */
  expired(ms: number): void {
    if (this.settledBody) return;
    this.stopBody();
    this.receiver.expire(this, ms);
  }

  /** The stream broke, or the client went away before the end of its body. */
  cutOff(err?: Error): void {
    if (this.settledBody) return;
    this.stopBody();
    this.receiver.cutOff(this, err);
  }

  /** The body is complete, refused or broken: its bytes leave the pending pool. */
  private stopBody(): void {
    this.settledBody = true;
    this.chunks = [];
    this.receiver.pool.release(this.client, this.tenant, this.held);
    this.held = 0;
  }

  /** The commit's verdict (CommitWaiter). */
  settle(err: Error | null, outcome: ApplyOutcome | null, delivery: Delivery): void {
    this.receiver.answer(this, err, outcome, delivery);
  }
}
