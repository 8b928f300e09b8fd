/** SQL for this till's payments, and the mapping from a row to what the UI sees. */
import { formatAmount } from '../../../shared/money.js';
import type { HandSettlement, PaymentView } from '../../../shared/ipc/contract.js';
import { OPEN_STATES, RESENDABLE_STATES, SENDING_STATES, type Environment, type PaymentState } from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import type { Db } from '../storage/index.js';
import { isOverdue } from '../../../shared/overdue.js';
import { formatReceiptNo } from '../../../shared/receipt-number.js';

export type PaymentRow = {
  id: string;
  request_id: string;
  merchant_ref: string;
  environment: Environment;
  state: PaymentState;
  amount: number;
  fee: number | null;
  net: number | null;
  msisdn: string;
  msisdn_rev: string;
  network: string;
  customer_name: string | null;
  description: string;
  request_body: string;
  reference: string | null;
  till_id: string;
  /** Who started it (null: nobody was signed in, the one-person shop). */
  staff_id: string | null;
  staff_name: string | null;
  shift_id: string | null;
  /** Settled by hand (all null unless it was): see settle-by-hand.ts. */
  hand_outcome: 'paid' | 'not_paid' | null;
  hand_reference: string | null;
  hand_fee: number | null;
  hand_note: string | null;
  hand_by_id: string | null;
  hand_by_name: string | null;
  hand_at: number | null;
  hand_check: 'confirmed' | 'overridden' | null;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  stopped_waiting: number;
  /** The name of the person who stopped waiting (null: nobody did, or the till has no staff). */
  stopped_by_name: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
  /** The receipt number, given in the statement that made it PAID (storage migration 15); null: never PAID. */
  receipt_no: number | null;
  /** Unix ms after which it is never sent (again) unless the service has acknowledged it: see send-deadline.ts. */
  send_until: number;
  /** 1: an attempt may have reached the service (an answer, a time-out, a broken connection, or one a crash cut short). */
  may_have_reached: number;
};

const iso = (ms: number) => new Date(ms).toISOString();

export function toPaymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    merchantRef: row.merchant_ref,
    environment: row.environment,
    state: row.state,
    amount: formatAmount(row.amount),
    fee: row.fee === null ? null : formatAmount(row.fee),
    net: row.net === null ? null : formatAmount(row.net),
    currency: 'GHS',
    msisdn: row.msisdn,
    network: row.network,
    customerName: row.customer_name,
    description: row.description,
    reference: row.reference,
    tillId: row.till_id,
    startedBy: row.staff_name,
    errorMessage: row.error_message,
    stoppedWaiting: row.stopped_waiting === 1,
    stoppedBy: row.stopped_by_name ?? null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    completedAt: row.completed_at === null ? null : iso(row.completed_at),
    settledByHand: handSettlementView(row),
    receiptNo: row.receipt_no === null ? null : formatReceiptNo(row.receipt_no),
    sendUntil: iso(row.send_until),
    reach: reachOf(row),
  };
}

/**
 * Where the charge is, as far as the till knows: acknowledged by the service ('yes'), being sent with no
 * attempt that could have reached it yet ('not_yet'), or unknown ('maybe'). An attempt out right now counts
 * as 'not_yet' until it ends: the screen says "sending" while it is being sent.
 */
function reachOf(row: PaymentRow): PaymentView['reach'] {
  if (row.state === 'created' || row.state === 'not_sent') return 'not_yet';
  if (row.state === 'submitting' || row.state === 'uncertain') return row.may_have_reached === 1 ? 'maybe' : 'not_yet';
  if (row.state === 'unconfirmed') return 'maybe';
  return 'yes';
}

function handSettlementView(row: PaymentRow): HandSettlement | null {
  if (row.hand_outcome === null) return null;
  return {
    outcome: row.hand_outcome,
    reference: row.hand_reference,
    fee: row.hand_fee === null ? null : formatAmount(row.hand_fee),
    note: row.hand_note ?? '',
    by: row.hand_by_name ?? '',
    at: iso(row.hand_at ?? row.updated_at),
    check: row.hand_check,
  };
}

type HandColumn = Extract<keyof PaymentRow, `hand_${string}`>;

/** The view, flagged overdue when it has waited longer than any result can take to arrive (as of `now`). */
export function toPaymentViewAt(row: PaymentRow, now: number): PaymentView {
  return isOverdue(row.state, row.created_at, now) ? { ...toPaymentView(row), overdue: true } : toPaymentView(row);
}

/** The columns a payment gains as it goes on (its result, its waiting): set by updates, never at insert. */
type ProgressColumn =
  | 'fee'
  | 'net'
  | 'reference'
  | 'error_code'
  | 'error_message'
  | 'attempts'
  | 'stopped_waiting'
  | 'stopped_by_name'
  | 'completed_at'
  | 'may_have_reached';

export type PaymentPatch = Partial<Pick<PaymentRow, 'state' | ProgressColumn | HandColumn>>;

export class PaymentsRepo {
  private readonly stmts;
  private readonly updates = new Map<string, ReturnType<Db['prepare']>>();

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO payments (id, request_id, merchant_ref, environment, state, amount, msisdn, msisdn_rev, network,
           customer_name, description, request_body, reference, till_id, staff_id, staff_name, shift_id, created_at, updated_at, send_until)
         VALUES (@id, @request_id, @merchant_ref, @environment, @state, @amount, @msisdn, @msisdn_rev, @network,
           @customer_name, @description, @request_body, @reference, @till_id, @staff_id, @staff_name, @shift_id, @created_at, @updated_at,
           @send_until)`,
      ),
      byId: db.prepare('SELECT * FROM payments WHERE id = ?'),
      byRequestId: db.prepare('SELECT * FROM payments WHERE request_id = ?'),
      byMerchantRef: db.prepare('SELECT * FROM payments WHERE environment = ? AND merchant_ref = ?'),
      byReference: db.prepare('SELECT * FROM payments WHERE environment = ? AND reference = ?'),
      busy: db.prepare(`SELECT * FROM payments WHERE till_id = ? AND environment = ? AND state IN (${sqlList(SENDING_STATES)}) LIMIT 1`),
      open: db.prepare(
        `SELECT * FROM payments WHERE environment = ? AND state IN (${sqlList(OPEN_STATES)}) ORDER BY created_at DESC LIMIT 200`,
      ),
      toResume: db.prepare(`SELECT * FROM payments WHERE state IN (${sqlList(RESENDABLE_STATES)}) ORDER BY created_at`),
      openEverywhere: db.prepare(`SELECT * FROM payments WHERE state IN (${sqlList(OPEN_STATES)}) ORDER BY created_at DESC LIMIT 200`),
    };
  }

  insert(
    row: Omit<PaymentRow, ProgressColumn | 'staff_id' | 'staff_name' | 'shift_id' | 'receipt_no' | 'send_until' | HandColumn> &
      Partial<Pick<PaymentRow, 'reference' | 'staff_id' | 'staff_name' | 'shift_id' | 'send_until'>>,
  ): void {
    // Without a deadline (rows made by tests and tools), the payment is already past it: never sent.
    this.stmts.insert.run({ reference: null, staff_id: null, staff_name: null, shift_id: null, send_until: row.created_at, ...row });
  }

  get(id: string): PaymentRow | null {
    return (this.stmts.byId.get(id) as PaymentRow | undefined) ?? null;
  }

  byRequestId(requestId: string): PaymentRow | null {
    return (this.stmts.byRequestId.get(requestId) as PaymentRow | undefined) ?? null;
  }

  byMerchantRef(environment: Environment, ref: string): PaymentRow | null {
    return (this.stmts.byMerchantRef.get(environment, ref) as PaymentRow | undefined) ?? null;
  }

  byReference(environment: Environment, reference: string): PaymentRow | null {
    return (this.stmts.byReference.get(environment, reference) as PaymentRow | undefined) ?? null;
  }

  /**
   * A payment of this till still being sent (created or submitting) in this environment. Per environment:
   * a LIVE payment held back because the LIVE secret is missing (keychain emptied) must not stop TEST sales.
   */
  busy(tillId: string, environment: Environment): PaymentRow | null {
    return (this.stmts.busy.get(tillId, environment) as PaymentRow | undefined) ?? null;
  }

  open(environment: Environment): PaymentRow[] {
    return this.stmts.open.all(environment) as PaymentRow[];
  }

  /** Open payments in every environment (newest first): what a start finds left open. */
  openEverywhere(): PaymentRow[] {
    return this.stmts.openEverywhere.all() as PaymentRow[];
  }

  toResume(): PaymentRow[] {
    return this.stmts.toResume.all() as PaymentRow[];
  }

  /** Apply a patch; `from` guards the transition (no-op and null when the state moved meanwhile). */
  update(id: string, patch: PaymentPatch, now: number, from?: readonly PaymentState[]): PaymentRow | null {
    const keys = Object.keys(patch) as Array<keyof PaymentPatch>;
    const sets = [...keys.map((k) => `${k} = @${k}`), 'updated_at = @updated_at'].join(', ');
    const guard = from ? ` AND state IN (${sqlList(from)})` : '';
    const sql = `UPDATE payments SET ${sets} WHERE id = @id${guard}`;
    let stmt = this.updates.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.updates.set(sql, stmt);
    }
    const result = stmt.run({ ...patch, id, updated_at: now });
    return result.changes === 1 ? this.get(id) : null;
  }
}
