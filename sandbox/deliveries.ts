/**
 * Webhook deliveries (spec 6.5, 8): 8 attempts at 0, +5, +10, +20, +40, +80, +160, +320 s, each offset
 * counted from the end of the previous failed attempt; 2xx is delivered; any other status, a network
 * error or no answer within 15 s is a failed attempt; after 8 failures the delivery is FAILED.
 * Each attempt is signed afresh at send time with the key that initiated the payment. Deliveries and
 * every attempt live in SQLite, so a restart resumes each pending schedule where it stopped.
 */
import { ulid } from 'ulid';
import type { Db } from './db.js';
import type { SandboxClock } from './clock.js';
import { TimerSet } from './clock.js';
import { signWebhook, type SignedPayload } from '../shared/webhook-signature.js';
import { WEBHOOK_USER_AGENT } from '../shared/wire/webhook.js';

/** Seconds before attempt 1..8 (spec 6.5). */
export const RETRY_OFFSETS_MS = [0, 5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000] as const;
export const MAX_ATTEMPTS = RETRY_OFFSETS_MS.length;
export const DELIVERY_TIMEOUT_MS = 15_000;

export type SendRequest = { url: string; headers: Record<string, string>; body: string; signal: AbortSignal };
/** Resolves with the HTTP status of the answer; rejects on a network error or abort. */
export type Sender = (request: SendRequest) => Promise<number>;

export type DeliveryRow = {
  id: string;
  reference: string;
  key_public_id: string;
  callback_url: string;
  body: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  scheduled_attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
};
export type AttemptRow = {
  id: number;
  delivery_id: string;
  attempt_no: number;
  manual: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  ok: number;
};

export type DeliveryEngineOptions = {
  db: Db;
  clock: SandboxClock;
  timeScale: number;
  /** Clock milliseconds an attempt waits for an answer (already scaled); default 15 s × timeScale. */
  deliveryTimeoutMs?: number;
  signedPayload: SignedPayload;
  secretOf: (publicId: string) => string;
  send: Sender;
  log: (line: Record<string, unknown>) => void;
};

class ClosingError extends Error {}

export class DeliveryEngine {
  private readonly timers: TimerSet;
  private readonly cancelOf = new Map<string, () => void>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly controllers = new Set<AbortController>();
  private closing = false;

  constructor(private readonly o: DeliveryEngineOptions) {
    this.timers = new TimerSet(o.clock, o.timeScale);
  }

  /**
   * Creates the one delivery of a transaction's final state and starts its schedule (attempt 1 now). A
   * `held` delivery gets no schedule (PENDING with no next attempt, also after a restart): only a replay
   * sends it, so the till's "settle by hand" can be tried against a payment whose result never comes.
   */
  enqueue(reference: string, keyPublicId: string, callbackUrl: string, body: string, options: { held?: boolean } = {}): DeliveryRow {
    const now = this.o.clock.now();
    const row: DeliveryRow = {
      id: `dlv_${ulid()}`,
      reference,
      key_public_id: keyPublicId,
      callback_url: callbackUrl,
      body,
      status: 'PENDING',
      scheduled_attempts: 0,
      next_attempt_at: options.held ? null : now,
      created_at: now,
      updated_at: now,
    };
    this.o.db
      .prepare(
        `INSERT INTO deliveries (id, reference, key_public_id, callback_url, body, status, scheduled_attempts, next_attempt_at, created_at, updated_at)
         VALUES (@id, @reference, @key_public_id, @callback_url, @body, @status, @scheduled_attempts, @next_attempt_at, @created_at, @updated_at)`,
      )
      .run(row);
    if (!options.held) this.schedule(row.id, 0);
    return row;
  }

  /** After a restart: every PENDING delivery continues at its stored next attempt time (a held one stays held). */
  resumeAll(): number {
    const rows = this.o.db
      .prepare(
        "SELECT id, next_attempt_at FROM deliveries WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL ORDER BY next_attempt_at",
      )
      .all() as { id: string; next_attempt_at: number }[];
    const now = this.o.clock.now();
    for (const row of rows) this.schedule(row.id, row.next_attempt_at - now);
    if (rows.length > 0) this.o.log({ msg: 'deliveries_resumed', count: rows.length });
    return rows.length;
  }

  get(id: string): DeliveryRow | undefined {
    return this.o.db.prepare('SELECT * FROM deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
  }

  attempts(id: string): AttemptRow[] {
    return this.o.db.prepare('SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt_no').all(id) as AttemptRow[];
  }

  /** A delivery replayed by hand: one immediate extra attempt. A 2xx marks it DELIVERED. */
  async replay(id: string): Promise<AttemptRow> {
    const delivery = this.get(id);
    if (!delivery) throw new Error(`No delivery ${id}`);
    const attempt = await this.track(this.attempt(delivery, true));
    if (attempt.ok) {
      this.cancelOf.get(id)?.();
      this.cancelOf.delete(id);
      this.o.db
        .prepare("UPDATE deliveries SET status = 'DELIVERED', next_attempt_at = NULL, updated_at = ? WHERE id = ?")
        .run(this.o.clock.now(), id);
    }
    return attempt;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.timers.clearAll();
    this.cancelOf.clear();
    for (const controller of this.controllers) controller.abort(new ClosingError('closing'));
    await Promise.allSettled([...this.inflight]);
  }

  private schedule(id: string, clockDelayMs: number): void {
    if (this.closing) return;
    const cancel = this.timers.at(clockDelayMs, () => {
      this.cancelOf.delete(id);
      void this.track(this.runScheduled(id)).catch((error: unknown) => {
        if (!(error instanceof ClosingError)) this.o.log({ level: 'error', msg: 'delivery_error', deliveryId: id, error: String(error) });
      });
    });
    this.cancelOf.set(id, cancel);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    void promise.finally(() => this.inflight.delete(promise)).catch(() => undefined);
    return promise;
  }

  private async runScheduled(id: string): Promise<void> {
    const delivery = this.get(id);
    if (!delivery || delivery.status !== 'PENDING') return;
    const attempt = await this.attempt(delivery, false);
    const now = this.o.clock.now();
    const made = delivery.scheduled_attempts + 1;
    if (attempt.ok) {
      this.o.db
        .prepare("UPDATE deliveries SET status = 'DELIVERED', scheduled_attempts = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?")
        .run(made, now, id);
      return;
    }
    if (made >= MAX_ATTEMPTS) {
      this.o.db
        .prepare(
          "UPDATE deliveries SET status = 'FAILED', scheduled_attempts = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ? AND status = 'PENDING'",
        )
        .run(made, now, id);
      this.o.log({ level: 'warn', msg: 'delivery_failed', deliveryId: id, reference: delivery.reference, attempts: made });
      return;
    }
    const delay = this.timers.scaled(RETRY_OFFSETS_MS[made] as number);
    const result = this.o.db
      .prepare("UPDATE deliveries SET scheduled_attempts = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND status = 'PENDING'")
      .run(made, now + delay, now, id);
    if (result.changes === 1) this.schedule(id, delay);
  }

  /** One signed POST. Records the attempt (unless the simulator is closing, so a restart redoes it). */
  private async attempt(delivery: DeliveryRow, manual: boolean): Promise<AttemptRow> {
    const clock = this.o.clock;
    const timestamp = Math.floor(clock.now() / 1000);
    const secret = this.o.secretOf(delivery.key_public_id);
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'x-service-signature': signWebhook({ secret, rawBody: delivery.body, timestamp, signedPayload: this.o.signedPayload }),
      'x-service-timestamp': String(timestamp),
      'x-service-key-id': delivery.key_public_id,
    };
    const controller = new AbortController();
    this.controllers.add(controller);
    const timeoutMs = this.o.deliveryTimeoutMs ?? this.timers.scaled(DELIVERY_TIMEOUT_MS);
    const cancelTimeout = this.timers.at(timeoutMs, () => controller.abort(new Error('timeout')));
    const startedAt = clock.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      statusCode = await raceAbort(
        this.o.send({ url: delivery.callback_url, headers, body: delivery.body, signal: controller.signal }),
        controller.signal,
      );
    } catch (caught) {
      if (controller.signal.reason instanceof ClosingError) throw controller.signal.reason;
      error = controller.signal.aborted ? `timeout: no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : describeNetworkError(caught);
    } finally {
      cancelTimeout();
      this.controllers.delete(controller);
    }
    const durationMs = clock.now() - startedAt;
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const attemptNo = this.o.db.transaction(() => {
      const next =
        ((
          this.o.db.prepare('SELECT MAX(attempt_no) AS n FROM delivery_attempts WHERE delivery_id = ?').get(delivery.id) as {
            n: number | null;
          }
        ).n ?? 0) + 1;
      this.o.db
        .prepare(
          `INSERT INTO delivery_attempts (delivery_id, attempt_no, manual, started_at, duration_ms, status_code, error, ok)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(delivery.id, next, manual ? 1 : 0, startedAt, durationMs, statusCode, error, ok ? 1 : 0);
      return next;
    })();
    this.o.log({
      msg: 'webhook_attempt',
      deliveryId: delivery.id,
      reference: delivery.reference,
      attempt: attemptNo,
      manual,
      statusCode,
      error,
      durationMs,
      keyId: delivery.key_public_id,
    });
    return this.attempts(delivery.id).find((a) => a.attempt_no === attemptNo) as AttemptRow;
  }
}

/** Settles when the send settles or the signal aborts, whichever is first (a sender may ignore its signal). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    return code ? `${String(code)}: ${error.message}` : error.message;
  }
  return String(error);
}
