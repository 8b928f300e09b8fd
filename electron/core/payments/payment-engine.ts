/**
 * The payment state machine (its states and their sets: shared/domain.ts), persisted in SQLite. An
 * uncertain payment is sent again with the SAME merchantRef and the SAME body bytes (the service treats
 * the ref as an idempotency key), until the service answers or the relay brings the final result.
 * A final result from the relay lands on any payment not yet final, whenever it arrives.
 */
import { plainTextOrNull } from '../../../shared/outside-text.js';
import { ulid } from 'ulid';
import { initializeResponseSchema } from '../../../shared/wire/initialize.js';
import type { WireTransaction } from '../../../shared/wire/transaction.js';
import type { IpcResponse, PaymentView } from '../../../shared/ipc/contract.js';
import { isDefiniteRejection, messageForServiceError, SERVICE_TROUBLE_MESSAGE, UNREACHABLE_MESSAGE } from './error-messages.js';
import { landOnHandSettled } from './hand-result.js';
import { landResult } from './land-result.js';
import { toPaymentView, type PaymentRow } from './payments-repo.js';
import { isOpen, isResendable, RESENDABLE_STATES, type Environment } from '../../../shared/domain.js';
import { checkCharge, initializeBody, type ChargeInput, type CheckedCharge } from './charge-request.js';

/** The longest wait before re-sending an uncertain payment, whatever Retry-After says. */
export const MAX_RETRY_DELAY_MS = 10 * 60_000;
/** Longest wait between two reads of missing credentials (each read may make the OS ask to unlock the keychain). */
export const MAX_CREDENTIALS_WAIT_MS = 60_000;

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
    const outcome = this.insertOnce(environment, input, checked.charge, { id, merchantRef, tillId, body, by });
    if ('busy' in outcome) {
      return { ok: false, message: 'Another payment is still being sent from this till. Wait for it to finish, then charge again.' };
    }
    if (outcome.id !== id) return this.sameAgain(outcome);
    this.deps.log.info('payment.created', { id, merchantRef, environment, amount: input.amount });
    this.emit(outcome);
    await this.submit(id);
    return { ok: true, payment: toPaymentView(this.deps.repo.get(id) as PaymentRow) };
  }

  /**
   * Stores the payment before its first request, in one immediate transaction: the same requestId (a second
   * click or window) finds the payment already there, and one till sends one payment at a time per environment.
   */
  private insertOnce(
    environment: Environment,
    input: ChargeInput,
    charge: CheckedCharge,
    made: { id: string; merchantRef: string; tillId: string; body: string; by: StartedBy | null },
  ): PaymentRow | { busy: PaymentRow } {
    const { repo, db, now } = this.deps;
    return db
      .transaction((): PaymentRow | { busy: PaymentRow } => {
        const again = repo.byRequestId(input.requestId);
        if (again) return again;
        const busy = repo.busy(made.tillId, environment);
        if (busy) return { busy };
        const at = now();
        repo.insert({
          id: made.id,
          request_id: input.requestId,
          merchant_ref: made.merchantRef,
          environment,
          state: 'created',
          amount: charge.pesewas,
          msisdn: charge.msisdn,
          msisdn_rev: [...charge.msisdn].reverse().join(''),
          network: charge.network,
          customer_name: plainTextOrNull(input.customerName),
          description: charge.description,
          request_body: made.body,
          till_id: made.tillId,
          staff_id: made.by?.id ?? null,
          staff_name: made.by?.name ?? null,
          shift_id: made.by?.shiftId ?? null,
          created_at: at,
          updated_at: at,
        });
        return repo.get(made.id) as PaymentRow;
      })
      .immediate();
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
      const first = this.deps.retryDelaysMs[0] ?? 1000;
      this.scheduleRetry(row, { delayMs: Math.min(first * 2 ** Math.min(waits - 1, 20), MAX_CREDENTIALS_WAIT_MS), emit: false });
      return;
    }
    this.credentialWaits.delete(id);
    const sending = repo.update(id, { state: 'submitting', attempts: row.attempts + 1 }, now(), RESENDABLE_STATES);
    if (!sending) return;
    this.emit(sending);
    const result = await this.deps.client.initialize(credentials, row.request_body);
    if (this.closed) return;
    const firstAttempt = sending.attempts === 1;

    if (result.kind === 'answer') {
      const parsed = initializeResponseSchema.safeParse(result.json);
      const reference = parsed.success ? parsed.data.data.reference : null;
      log.info('payment.accepted', { id, status: result.status, reference, attempt: sending.attempts });
      const updated = repo.update(id, { state: 'awaiting_customer', reference, error_code: null, error_message: null }, now(), [
        'submitting',
      ]);
      if (updated) this.emit(updated);
      this.applyKnownResult(id);
      return;
    }
    if (result.kind === 'error' && isDefiniteRejection(result.status)) {
      const message = messageForServiceError(result.status, result.code, result.message);
      log.warn('payment.refused', { id, status: result.status, code: result.code, attempt: sending.attempts });
      if (firstAttempt) {
        const updated = repo.update(
          id,
          { state: 'rejected', error_code: result.code ?? `HTTP_${result.status}`, error_message: message },
          now(),
          ['submitting'],
        );
        if (updated) this.emit(updated);
        return;
      }
      // An earlier attempt may have reached the service: this payment is not known to be dead. Keep it
      // uncertain (its result can still arrive through the relay) and keep retrying slowly.
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
    const updated = repo.update(
      id,
      { state: 'uncertain', error_code: result.kind === 'error' ? result.code : result.reason, error_message: message },
      now(),
      ['submitting'],
    );
    if (updated) this.scheduleRetry(updated, { retryAfterMs: result.kind === 'error' ? result.retryAfterMs : null });
  }

  private scheduleRetry(row: PaymentRow, options: { retryAfterMs?: number | null; delayMs?: number; emit?: boolean } = {}): void {
    if (options.emit !== false) this.emit(row);
    if (this.closed || this.timers.has(row.id)) return;
    const delays = this.deps.retryDelaysMs;
    const base = options.delayMs ?? delays[Math.min(Math.max(row.attempts - 1, 0), delays.length - 1)] ?? 1000;
    // A service's Retry-After is honoured up to a bound: a huge value would overflow setTimeout (Node
    // then fires after 1 ms, a tight retry loop against a service asking us to back off).
    const delay = Math.min(Math.max(base, options.retryAfterMs ?? 0), MAX_RETRY_DELAY_MS);
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
      const timer = this.timers.get(id);
      if (timer) clearTimeout(timer);
      this.timers.delete(id);
      this.credentialWaits.delete(id);
      void this.submit(id).catch((error) => this.deps.log.error('payment.retry_failed', { id, error }));
    }
  }

  /** On start: payments a crash left created, submitting or uncertain are sent again (same ref, same body). */
  resume(): void {
    for (const row of this.deps.repo.toResume()) {
      this.deps.log.info('payment.resume', { id: row.id, state: row.state });
      void this.submit(row.id).catch((error) => this.deps.log.error('payment.resume_failed', { id: row.id, error }));
    }
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
      const timer = this.timers.get(updated.id);
      if (timer) clearTimeout(timer);
      this.timers.delete(updated.id);
      this.credentialWaits.delete(updated.id);
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

  /** `by`: the name of the person who stopped waiting (null on a till without staff). */
  stopWaiting(id: string, by: string | null = null): PaymentView | null {
    const row = this.deps.repo.get(id);
    if (!row) return null;
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
