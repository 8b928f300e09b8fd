/**
 * Settle by hand: a payment of this till that never got a result (overdue: its webhook
 * most likely failed every attempt) is given the outcome a manager verified on the service's dashboard.
 * That includes an unconfirmed one (the till stopped sending it, but it may have reached the service: the
 * dashboard says whether it did). A not_sent one never reached the service, so there is nothing to settle:
 * refused, paid or not, so that it cannot be counted as paid by mistake.
 * One SQLite transaction writes the payment's final state with the hand settlement, a transaction row
 * counted by takings, the rollup and the CSV (settled_by_hand = 1), and the audit entry; a refusal changes
 * nothing. The service's own result, if it comes later, is reconciled by hand-result.ts.
 */
import { OPEN_STATES, isFinal, type Environment, type PaymentState } from '../../../shared/domain.js';
import { formatGhs } from '../../../shared/money.js';
import type { IpcResponse } from '../../../shared/ipc/contract.js';
import type { Actor, AuditLog } from '../people/index.js';
import type { EngineDeps } from '../payments/index.js';
import { isOverdue, OVERDUE_AFTER_MS } from '../../../shared/overdue.js';
import { toPaymentView, type PaymentRow } from '../payments/index.js';
import { handReferenceOf } from '../payments/index.js';
import { checkSettlement, refuse, type CheckedSettlement, type SettleRefusal, type SettleRequest } from './settle-rules.js';

/** Without the service's result, and possibly at the service (awaitsResult). */
const SETTLEABLE_STATES: readonly PaymentState[] = [...OPEN_STATES, 'unconfirmed'];

/** The engine's stores, clock and till id (settling writes where the engine's own results go), and the audit log. */
export type SettleDeps = Pick<EngineDeps, 'db' | 'repo' | 'transactions' | 'now' | 'tillId'> & { audit: AuditLog };

export function settleByHand(
  deps: SettleDeps,
  environment: Environment,
  request: SettleRequest,
  by: NonNullable<Actor>,
): { answer: IpcResponse<'payments:settle'>; settled: PaymentRow | null } {
  const refused = (refusal: SettleRefusal) => ({ answer: refusal, settled: null });
  const payment = deps.repo.get(request.id);
  const why = payment ? whyNotSettleable(payment, environment, deps.tillId(), deps.now()) : null;
  if (!payment) return refused(refuse('There is no such payment on this till.'));
  if (why) return refused(refuse(why));
  const checked = checkSettlement(request, payment.amount);
  if ('message' in checked) return refused(checked);
  return deps.db
    .transaction(() => {
      const clash = checked.reference ? referenceClash(deps, environment, checked.reference, payment) : null;
      if (clash) return refused(refuse(clash, 'reference'));
      const settled = writeSettlement(deps, payment, checked, by);
      if (!settled) return refused(refuse('This payment changed just now (its result may have arrived). Look at it again.'));
      return { answer: { ok: true as const, payment: toPaymentView(settled) }, settled };
    })
    .immediate();
}

/** Why this payment may not be settled by hand now (null: it may). */
function whyNotSettleable(payment: PaymentRow, environment: Environment, tillId: string, now: number): string | null {
  if (payment.environment !== environment)
    return `This payment was taken in ${payment.environment.toUpperCase()}; switch to it to settle it.`;
  if (payment.till_id !== tillId) return 'This payment was taken on another till: settle it there.';
  if (payment.hand_outcome !== null) return 'This payment was already settled by hand.';
  if (isFinal(payment.state))
    return `This payment already has the service's result (${payment.state === 'success' ? 'PAID' : 'NOT PAID'}).`;
  if (payment.state === 'rejected')
    return 'The service refused this payment when it was sent: no money moved and there is nothing to settle.';
  if (payment.state === 'not_sent')
    return 'This payment never reached the payment service: no prompt went out, so no money moved and there is nothing to settle. If the customer paid another way, that is not a payment of this till.';
  if (!isOverdue(payment.state, payment.created_at, now)) {
    const minutes = Math.ceil((payment.created_at + OVERDUE_AFTER_MS - now) / 60_000);
    return `Only an overdue payment can be settled by hand: its result may still come. Wait ${minutes} more minute${minutes === 1 ? '' : 's'}.`;
  }
  return null;
}

function referenceClash(deps: SettleDeps, environment: Environment, reference: string, payment: PaymentRow): string | null {
  if (payment.reference && payment.reference !== reference) {
    return `The service gave this payment the reference ${payment.reference}; ${reference} is another one. Check the dashboard again.`;
  }
  const other = deps.repo.byReference(environment, reference);
  if ((other && other.id !== payment.id) || deps.transactions.find(environment, reference, null)) {
    return `The reference ${reference} already belongs to another transaction.`;
  }
  return null;
}

function writeSettlement(deps: SettleDeps, payment: PaymentRow, checked: CheckedSettlement, by: NonNullable<Actor>): PaymentRow | null {
  const at = deps.now();
  const paid = checked.outcome === 'paid';
  const fee = paid ? (checked.fee ?? 0) : 0;
  const net = paid ? payment.amount - fee : 0;
  const settled = deps.repo.update(
    payment.id,
    {
      state: paid ? 'success' : 'failed',
      reference: checked.reference ?? payment.reference,
      fee,
      net,
      completed_at: at,
      error_code: null,
      error_message: null,
      hand_outcome: checked.outcome,
      hand_reference: checked.reference,
      hand_fee: checked.fee,
      hand_note: checked.note,
      hand_by_id: by.id,
      hand_by_name: by.name,
      hand_at: at,
      hand_check: null,
    },
    at,
    SETTLEABLE_STATES,
  );
  if (!settled) return null;
  deps.transactions.insertByHand(
    {
      environment: payment.environment,
      reference: handReferenceOf(settled),
      client_reference: payment.merchant_ref,
      status: paid ? 'SUCCESS' : 'FAILED',
      amount: payment.amount,
      fee,
      net,
      msisdn: payment.msisdn,
      network: payment.network,
      description: payment.description,
      till_id: payment.till_id,
      staff_id: payment.staff_id,
      staff_name: payment.staff_name,
      completed_at: at,
    },
    at,
  );
  const fees = checked.fee === null ? (paid ? ', fee not given (0.00 counted)' : '') : `, fee ${formatGhs(checked.fee)}`;
  const what = paid ? `paid, reference ${checked.reference}${fees}` : 'not paid';
  deps.audit.record(by, 'settle_by_hand', `payment ${payment.id} (${formatGhs(payment.amount)}): ${what}; note: ${checked.note}`);
  return settled;
}
