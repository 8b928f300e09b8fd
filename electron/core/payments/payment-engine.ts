/**
 * The payment state machine (its states and their sets: shared/domain.ts), persisted in SQLite. An
 * uncertain payment is sent again with the SAME merchantRef and the SAME body bytes (the service treats
 * the ref as an idempotency key), until the service answers, the relay brings the final result, or its
 * deadline passes or the cashier says stop (send-deadline.ts): then it ends not_sent or unconfirmed and is
 * never sent again. A final result from the relay lands on any payment not yet final, whenever it arrives.
 */
import { ulid } from 'ulid';
import { initializeResponseSchema } from '../../../shared/wire/initialize.js';
import type { WireTransaction } from '../../../shared/wire/transaction.js';
import type { IpcResponse, PaymentView } from '../../../shared/ipc/contract.js';
import { isDefiniteRejection, messageForServiceError, SERVICE_TROUBLE_MESSAGE, UNREACHABLE_MESSAGE } from './error-messages.js';
import { landOnHandSettled } from './hand-result.js';
import { landResult } from './land-result.js';
import { toPaymentView, type PaymentRow } from './payments-repo.js';
import { isOpen, isResendable, RESENDABLE_STATES, type Environment } from '../../../shared/domain.js';
import { attemptMayHaveReached, endSending, stoppedDuringAttempt } from './send-deadline.js';
import { checkCharge, initializeBody, type ChargeInput } from './charge-request.js';
import { insertOnce } from './insert-payment.js';
import type { ServiceResult } from './service-client.js';
import { credentialsWait, retryDelay } from './retry-delay.js';

export type { ChargeInput } from './charge-request.js';
type ChargeResult = IpcResponse<'payments:charge'>;

export type { EngineDeps, StartedBy } from './payment-engine-deps.js';
import type { EngineDeps, StartedBy } from './payment-engine-deps.js';

export class PaymentEngine {
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Consecutive reads that found no credentials, per payment: the wait doubles each time. */
  private readonly credentialWaits = new Map<string, number>();
  private closed = false;

  constructor(private readonly deps: EngineDeps) {}

  /** `by`: who is signed in (and their shift), recorded with the payment and sent in its metadata. */
  async charge(environment: Environment, input: ChargeInput, by: StartedBy | null = null): Promise<ChargeResult> {
    const existing = this.deps.repo.byRequestId(input.requestId);
    if (existing) return this.sameAgain(existing);
    const checked = checkCharge(input);
    if (!checked.ok) return checked;
    const credentials = await this.deps.credentialsFor(environment);
    if (!credentials) {
      return {
        ok: false,
        message: `${environment.toUpperCase()} settings are incomplete: the owner must finish them in Settings before the till can charge.`,
      };
    }
    const tillId = this.deps.tillId();
    const id = ulid(this.deps.now());
    const merchantRef = `${tillId}.${id}`;
    const till = { id: tillId, name: this.deps.tillName() };
    const body = initializeBody(input.amount, checked.charge, { merchantRef, till, callbackUrl: credentials.callbackUrl, cashier: by });
    const outcome = insertOnce(this.deps, environment, input, checked.charge, { id, merchantRef, tillId, body, by });
    if ('busy' in outcome) {
      return { ok: false, message: 'Another payment is still being sent from this till. Wait for it to finish, then charge again.' };
    }
    if (outcome.id !== id) return this.sameAgain(outcome);
    this.deps.log.info('payment.created', { id, merchantRef, environment, amount: input.amount });
    this.emit(outcome);
    await this.submit(id);
    return { ok: true, payment: toPaymentView(this.deps.repo.get(id) as PaymentRow) };
  }

  private async sameAgain(row: PaymentRow): Promise<ChargeResult> {
    await this.inflight.get(row.id);
    return { ok: true, payment: toPaymentView(this.deps.repo.get(row.id) as PaymentRow) };
  }

  /** Send (or re-send) initialize for a payment. Never runs twice at once for one payment. */
  submit(id: string): Promise<void> {
    const running = this.inflight.get(id);
    if (running) return running;
    const task = this.doSubmit(id).finally(() => this.inflight.delete(id));
    this.inflight.set(id, task);
    return task;
  }

  private async doSubmit(id: string): Promise<void> {
    const { repo, now, log } = this.deps;
    const row = repo.get(id);
    if (!row || !isResendable(row.state) || this.closed) return;
    if (this.endedAtDeadline(row)) return;
    let credentials: Awaited<ReturnType<EngineDeps['credentialsFor']>>;
    try {
      credentials = await this.deps.credentialsFor(row.environment);
    } catch (error) {
      // The keychain said no just now (locked, restarting): try again later rather than never.
      log.warn('payment.credentials_unavailable', { id, error });
      credentials = null;
    }
    if (!credentials) {
      // Nothing changed on the payment, so nothing is emitted; the next look waits twice as long.
      const waits = (this.credentialWaits.get(id) ?? 0) + 1;
      this.credentialWaits.set(id, waits);
      this.scheduleRetry(row, { delayMs: credentialsWait(this.deps.retryDelaysMs, waits), emit: false });
      return;
    }
    this.credentialWaits.delete(id);
    // Reading the keychain may have taken long, or the cashier said stop meanwhile.
    const fresh = repo.get(id);
    if (!fresh || !isResendable(fresh.state)) return;
    if (this.endedAtDeadline(fresh)) return;
    const sending = repo.update(id, { state: 'submitting', attempts: row.attempts + 1 }, now(), RESENDABLE_STATES);
    if (!sending) return;
    this.emit(sending);
    const result = await this.deps.client.initialize(credentials, row.request_body);
    if (this.closed) return;
    const firstAttempt = sending.attempts === 1;
    const mayHaveReached = sending.may_have_reached === 1 || attemptMayHaveReached(result);

    if (result.kind === 'answer') return this.accepted(id, result, sending.attempts);
    if (result.kind === 'error' && isDefiniteRejection(result.status)) {
      const message = messageForServiceError(result.status, result.code, result.message);
      log.warn('payment.refused', { id, status: result.status, code: result.code, attempt: sending.attempts });
      if (firstAttempt) {
        const updated = repo.update(
          id,
          { state: 'rejected', error_code: result.code ?? `HTTP_${result.status}`, error_message: message },
          now(),
          ['submitting', 'unconfirmed'],
        );
        if (updated) this.emit(updated);
        return;
      }
      // An earlier attempt may have reached the service: this payment is not known to be dead. Keep it
      // uncertain (its result can still arrive through the relay) and keep retrying slowly. This attempt
      // created nothing, so it says no more than the earlier ones did.
      if (this.stoppedDuring(id, sending.may_have_reached === 1)) return;
      const updated = repo.update(id, { state: 'uncertain', error_code: result.code, error_message: message }, now(), ['submitting']);
      if (updated) this.scheduleRetry(updated, { retryAfterMs: result.retryAfterMs });
      return;
    }
    const message = result.kind === 'error' ? SERVICE_TROUBLE_MESSAGE : UNREACHABLE_MESSAGE;
    log.warn('payment.uncertain', {
      id,
      attempt: sending.attempts,
      ...(result.kind === 'error' ? { status: result.status, code: result.code } : { reason: result.reason }),
    });
    if (this.stoppedDuring(id, mayHaveReached)) return;
    const updated = repo.update(
      id,
      {
        state: 'uncertain',
        error_code: result.kind === 'error' ? result.code : result.reason,
        error_message: message,
        may_have_reached: mayHaveReached ? 1 : 0,
      },
      now(),
      ['submitting'],
    );
    if (updated) this.scheduleRetry(updated, { retryAfterMs: result.kind === 'error' ? result.retryAfterMs : null });
  }

  /** The service acknowledged it (even after the cashier said stop while this attempt was out): it is on the phone. */
  private accepted(id: string, result: Extract<ServiceResult, { kind: 'answer' }>, attempt: number): void {
    const parsed = initializeResponseSchema.safeParse(result.json);
    const reference = parsed.success ? parsed.data.data.reference : null;
    this.deps.log.info('payment.accepted', { id, status: result.status, reference, attempt });
    const updated = this.deps.repo.update(
      id,
      { state: 'awaiting_customer', reference, error_code: null, error_message: null, may_have_reached: 1 },
      this.deps.now(),
      ['submitting', 'unconfirmed'],
    );
    if (updated) this.emit(updated);
    this.applyKnownResult(id);
  }

  private scheduleRetry(row: PaymentRow, options: { retryAfterMs?: number | null; delayMs?: number; emit?: boolean } = {}): void {
    if (options.emit !== false) this.emit(row);
    if (this.closed || this.timers.has(row.id)) return;
    const delay = retryDelay(row, this.deps.retryDelaysMs, options, this.deps.now());
    const timer = setTimeout(() => {
      this.timers.delete(row.id);
      void this.submit(row.id).catch((error) => this.deps.log.error('payment.retry_failed', { id: row.id, error }));
    }, delay);
    timer.unref?.();
    this.timers.set(row.id, timer);
  }

  /** Settings were saved: payments held back for want of this environment's credentials look again now. */
  retryHeld(environment: Environment): void {
    for (const id of [...this.credentialWaits.keys()]) {
      const row = this.deps.repo.get(id);
      if (!row || row.environment !== environment) continue;
      this.forget(id);
      void this.submit(id).catch((error) => this.deps.log.error('payment.retry_failed', { id, error }));
    }
  }

  /**
   * On start: payments a crash left created, submitting or uncertain are sent again (same ref, same body)
   * while within their deadline; past it they end in their named state and are never sent.
   */
  resume(): void {
    for (const found of this.deps.repo.toResume()) {
      // Left submitting: the crash cut an attempt short, which may have reached the service.
      const row =
        found.state === 'submitting' ? (this.deps.repo.update(found.id, { may_have_reached: 1 }, this.deps.now()) ?? found) : found;
      this.deps.log.info('payment.resume', { id: row.id, state: row.state });
      if (this.endedAtDeadline(row)) continue;
      void this.submit(row.id).catch((error) => this.deps.log.error('payment.resume_failed', { id: row.id, error }));
    }
  }

  /** Sending stops for good (the deadline passed, or the cashier said stop): see send-deadline.ts. */
  private endSending(row: PaymentRow, why: 'deadline' | 'stopped', by: { name: string | null } | null = null): PaymentRow | null {
    this.forget(row.id);
    const updated = endSending(this.deps, row, why, by);
    if (updated) this.emit(updated);
    return updated;
  }

  /** Past its deadline: it ends in its named state now and is never sent. */
  private endedAtDeadline(row: PaymentRow): boolean {
    if (this.deps.now() < row.send_until) return false;
    this.endSending(row, 'deadline');
    return true;
  }

  /** True: the cashier said stop while this attempt was out, and what the attempt proved is recorded. */
  private stoppedDuring(id: string, mayHaveReached: boolean): boolean {
    const outcome = stoppedDuringAttempt(this.deps, id, mayHaveReached);
    if (outcome.updated) this.emit(outcome.updated);
    return outcome.stopped;
  }

  /** No more looks at this payment: its retry timer and its wait for credentials are dropped. */
  private forget(id: string): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
    this.credentialWaits.delete(id);
  }

  /** A final transaction from the relay (or catch-up): store it and land it on its payment. */
  applyTransaction(environment: Environment, tx: WireTransaction, relaySeq: number | null): void {
    const { db, transactions, log, now } = this.deps;
    if ((environment === 'test') !== (tx.sandbox === true)) {
      log.warn('relay.environment_mismatch', { environment, reference: tx.reference });
      return;
    }
    const updated = db.transaction(() => {
      const handSettled = landOnHandSettled(this.deps, environment, tx, relaySeq);
      if (handSettled) return handSettled;
      transactions.insert(environment, tx, relaySeq, now());
      return landResult(this.deps, environment, tx.reference, tx.clientReference);
    })();
    if (updated) {
      this.forget(updated.id);
      log.info('payment.final', { id: updated.id, state: updated.state, reference: updated.reference });
      this.emit(updated);
    }
  }

  /** The result may have arrived before the service's answer to initialize did. */
  private applyKnownResult(id: string): void {
    const row = this.deps.repo.get(id);
    if (!row) return;
    const updated = this.deps.db.transaction(() => landResult(this.deps, row.environment, row.reference ?? '', row.merchant_ref))();
    if (updated) this.emit(updated);
  }

  /**
   * `by`: the name of the person who stopped waiting (null on a till without staff). `send`: for a payment
   * the service has not acknowledged, 'keep' trying until its deadline or 'stop' sending it now.
   */
  stopWaiting(id: string, by: string | null = null, send: 'keep' | 'stop' = 'keep'): PaymentView | null {
    const row = this.deps.repo.get(id);
    if (!row) return null;
    if (send === 'stop' && isResendable(row.state)) {
      const ended = this.endSending(row, 'stopped', { name: by });
      if (ended) return toPaymentView(ended);
    }
    if (isOpen(row.state) && row.stopped_waiting === 0) {
      const updated = this.deps.repo.update(id, { stopped_waiting: 1, stopped_by_name: by }, this.deps.now());
      if (updated) {
        this.emit(updated);
        return toPaymentView(updated);
      }
    }
    return toPaymentView(row);
  }

  private emit(row: PaymentRow): void {
    this.deps.emit(toPaymentView(row));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inflight.values()]);
  }
}
