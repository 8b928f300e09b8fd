/**
 * Payments: initialize (validation, idempotent merchantRef), the simulated customer and network,
 * the final state (deduplicated: one final state, one webhook) and the webhook body (spec 2.1, 6.3).
 */
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import type { Db } from './db.js';
import type { SandboxClock } from './clock.js';
import { TimerSet } from './clock.js';
import type { DeliveryEngine } from './deliveries.js';
import type { Environment } from '../shared/domain.js';
import { REPEATED_REPORTS, REPEAT_GAP_MS, resultOf, testOutcomeFor, type FailureReason, type Outcome } from './outcomes.js';
import { resolveAccountName } from './names.js';
import { initializeRequestSchema } from '../shared/wire/initialize.js';
import { describeZodError } from '../shared/zod-error.js';
import { feeForAmount, formatAmount, parseAmount } from '../shared/money.js';
import { tryNormaliseMsisdn } from '../shared/phone.js';

export type TransactionRow = {
  reference: string;
  merchant_id: string;
  environment: Environment;
  key_public_id: string;
  merchant_ref: string | null;
  request_sha256: string;
  amount_pesewas: number;
  fee_pesewas: number;
  msisdn: string;
  network: string;
  customer_name: string | null;
  description: string;
  metadata: string | null;
  callback_url: string;
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  failure_reason: FailureReason | null;
  network_reports: number;
  outcome: Outcome;
  outcome_at: number | null;
  created_at: number;
  completed_at: number | null;
};

export type InitializeResult =
  | { kind: 'created' | 'replayed'; body: { data: Record<string, unknown> } }
  | { kind: 'invalid'; message: string }
  | { kind: 'duplicate'; message: string };

export type PaymentsOptions = {
  db: Db;
  clock: SandboxClock;
  timeScale: number;
  feeBasisPoints: number;
  promptTimeoutMs: number;
  deliveries: DeliveryEngine;
  log: (line: Record<string, unknown>) => void;
};

/** JSON with object keys sorted, so two equal bodies hash the same whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class Payments {
  private readonly timers: TimerSet;

  constructor(private readonly o: PaymentsOptions) {
    this.timers = new TimerSet(o.clock, o.timeScale);
  }

  initialize(auth: { merchantId: string; publicId: string; environment: Environment }, body: unknown): InitializeResult {
    const parsed = initializeRequestSchema.safeParse(body);
    if (!parsed.success) return { kind: 'invalid', message: describeZodError(parsed.error) };
    const request = parsed.data;
    const phone = tryNormaliseMsisdn(request.customer.msisdn);
    if (!phone.ok) return { kind: 'invalid', message: `customer.msisdn: ${phone.error}` };
    const requestHash = createHash('sha256').update(canonicalJson(request)).digest('hex');
    const now = this.o.clock.now();

    return this.o.db.transaction((): InitializeResult => {
      if (request.merchantRef !== undefined) {
        const existing = this.o.db
          .prepare('SELECT * FROM transactions WHERE merchant_id = ? AND environment = ? AND merchant_ref = ?')
          .get(auth.merchantId, auth.environment, request.merchantRef) as TransactionRow | undefined;
        if (existing) {
          if (existing.request_sha256 !== requestHash) {
            return {
              kind: 'duplicate',
              message: `merchantRef "${request.merchantRef}" was already used with a different request (reference ${existing.reference})`,
            };
          }
          return { kind: 'replayed', body: this.initializeAnswer(existing) };
        }
      }
      const plan =
        auth.environment === 'test'
          ? testOutcomeFor(phone.msisdn, this.o.promptTimeoutMs)
          : { outcome: 'MANUAL' as Outcome, delayMs: this.o.promptTimeoutMs };
      const delay = this.timers.scaled(plan.delayMs);
      const row: TransactionRow = {
        reference: `TX_${ulid()}`,
        merchant_id: auth.merchantId,
        environment: auth.environment,
        key_public_id: auth.publicId,
        merchant_ref: request.merchantRef ?? null,
        request_sha256: requestHash,
        amount_pesewas: parseAmount(request.amount),
        fee_pesewas: 0,
        msisdn: phone.msisdn,
        network: request.customer.network,
        customer_name: resolveAccountName(phone.msisdn),
        description: request.description ?? '',
        metadata: request.metadata === undefined ? null : JSON.stringify(request.metadata),
        callback_url: request.callbackUrl,
        status: 'PENDING',
        failure_reason: null,
        network_reports: 0,
        outcome: plan.outcome,
        outcome_at: now + delay,
        created_at: now,
        completed_at: null,
      };
      this.o.db
        .prepare(
          `INSERT INTO transactions (reference, merchant_id, environment, key_public_id, merchant_ref, request_sha256, amount_pesewas,
             fee_pesewas, msisdn, network, customer_name, description, metadata, callback_url, status, failure_reason, network_reports,
             outcome, outcome_at, created_at, completed_at)
           VALUES (@reference, @merchant_id, @environment, @key_public_id, @merchant_ref, @request_sha256, @amount_pesewas,
             @fee_pesewas, @msisdn, @network, @customer_name, @description, @metadata, @callback_url, @status, @failure_reason,
             @network_reports, @outcome, @outcome_at, @created_at, @completed_at)`,
        )
        .run(row);
      this.schedulePrompt(row.reference, row.outcome, delay);
      this.o.log({
        msg: 'payment_initialized',
        reference: row.reference,
        environment: row.environment,
        outcome: row.outcome,
        keyId: auth.publicId,
      });
      return { kind: 'created', body: this.initializeAnswer(row) };
    })();
  }

  get(reference: string): TransactionRow | undefined {
    return this.o.db.prepare('SELECT * FROM transactions WHERE reference = ?').get(reference) as TransactionRow | undefined;
  }

  list(limit = 200): TransactionRow[] {
    return this.o.db.prepare('SELECT * FROM transactions ORDER BY created_at DESC, reference DESC LIMIT ?').all(limit) as TransactionRow[];
  }

  /** After a restart: pending prompts continue to their stored outcome time. */
  resumeAll(): void {
    const rows = this.o.db.prepare("SELECT reference, outcome, outcome_at FROM transactions WHERE status = 'PENDING'").all() as Pick<
      TransactionRow,
      'reference' | 'outcome' | 'outcome_at'
    >[];
    const now = this.o.clock.now();
    for (const row of rows) this.schedulePrompt(row.reference, row.outcome, (row.outcome_at ?? now) - now);
  }

  /** A tester's hand on a pending live prompt. */
  decideByHand(
    reference: string,
    decision: 'authorise' | 'decline',
  ): { ok: true; row: TransactionRow } | { ok: false; status: number; message: string } {
    const row = this.get(reference);
    if (!row) return { ok: false, status: 404, message: `No transaction ${reference}` };
    if (row.outcome !== 'MANUAL')
      return {
        ok: false,
        status: 409,
        message: 'Only live-key prompts are authorised or declined by hand; test prompts follow the MSISDN table',
      };
    if (row.status !== 'PENDING') return { ok: false, status: 409, message: `Transaction ${reference} is already ${row.status}` };
    this.networkReport(reference, decision === 'authorise' ? { status: 'SUCCESS' } : { status: 'FAILED', reason: 'DECLINED' });
    return { ok: true, row: this.get(reference) as TransactionRow };
  }

  close(): void {
    this.timers.clearAll();
  }

  private schedulePrompt(reference: string, outcome: Outcome, clockDelayMs: number): void {
    if (outcome === 'AUTHORISE_REPORTED_THRICE') {
      // The same success, reported three times a little apart (the first may already be on the wire).
      for (let i = 0; i < REPEATED_REPORTS; i++) {
        this.timers.at(clockDelayMs + i * this.timers.scaled(REPEAT_GAP_MS), () => this.safeReport(reference, resultOf(outcome)));
      }
      return;
    }
    this.timers.at(clockDelayMs, () => {
      if (outcome === 'MANUAL') this.safeReport(reference, { status: 'FAILED', reason: 'TIMEOUT' });
      else this.safeReport(reference, resultOf(outcome));
    });
  }

  /** From a timer: an error is logged, never thrown into the event loop. */
  private safeReport(reference: string, result: { status: 'SUCCESS' } | { status: 'FAILED'; reason: FailureReason }): void {
    try {
      this.networkReport(reference, result);
    } catch (error) {
      this.o.log({
        level: 'error',
        msg: 'network_report_failed',
        reference,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * The network reports a result. The first one is final and sends the one webhook; repeats (and any
   * later conflicting report) are counted and ignored.
   */
  networkReport(reference: string, result: { status: 'SUCCESS' } | { status: 'FAILED'; reason: FailureReason }): boolean {
    const now = this.o.clock.now();
    return this.o.db.transaction(() => {
      this.o.db.prepare('UPDATE transactions SET network_reports = network_reports + 1 WHERE reference = ?').run(reference);
      const row = this.get(reference);
      if (!row) return false;
      if (row.status !== 'PENDING') {
        this.o.log({
          msg: 'network_report_deduplicated',
          reference,
          reported: result.status,
          final: row.status,
          reports: row.network_reports,
        });
        return false;
      }
      const fee = result.status === 'SUCCESS' ? feeForAmount(row.amount_pesewas, this.o.feeBasisPoints) : 0;
      this.o.db
        .prepare(
          "UPDATE transactions SET status = ?, failure_reason = ?, fee_pesewas = ?, completed_at = ? WHERE reference = ? AND status = 'PENDING'",
        )
        .run(result.status, result.status === 'FAILED' ? result.reason : null, fee, now, reference);
      const final = this.get(reference) as TransactionRow;
      const body = JSON.stringify({ createdAt: new Date(now).toISOString(), data: wireTransaction(final) });
      this.o.deliveries.enqueue(reference, final.key_public_id, final.callback_url, body, {
        held: final.outcome === 'AUTHORISE_NO_CALLBACK',
      });
      this.o.log({ msg: 'payment_final', reference, status: final.status, reason: final.failure_reason });
      return true;
    })();
  }

  private initializeAnswer(row: TransactionRow): { data: Record<string, unknown> } {
    return {
      data: {
        reference: row.reference,
        clientReference: row.merchant_ref,
        status: 'PENDING',
        amount: formatAmount(row.amount_pesewas),
        currency: 'GHS',
        customer: { msisdn: row.msisdn, network: row.network },
        createdAt: new Date(row.created_at).toISOString(),
      },
    };
  }
}

/** The transaction as carried in the webhook (spec 2.1): no customer name; sandbox marks only for test keys. */
export function wireTransaction(row: TransactionRow): Record<string, unknown> {
  const success = row.status === 'SUCCESS';
  return {
    reference: row.reference,
    clientReference: row.merchant_ref,
    status: row.status,
    amount: formatAmount(row.amount_pesewas),
    fee: formatAmount(success ? row.fee_pesewas : 0),
    net: formatAmount(success ? row.amount_pesewas - row.fee_pesewas : 0),
    currency: 'GHS',
    customer: { msisdn: row.msisdn, network: row.environment === 'test' ? 'SANDBOX' : row.network },
    description: row.description,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    completedAt: new Date(row.completed_at ?? row.created_at).toISOString(),
    ...(row.environment === 'test' ? { sandbox: true as const } : {}),
  };
}
