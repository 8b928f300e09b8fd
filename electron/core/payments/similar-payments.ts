/**
 * The duplicate question before a charge, decided for the whole shop: an earlier payment to the same
 * number for the same amount, whoever started it. This till's own payments that may still reach the
 * customer (open) or were PAID a few minutes ago, and PAID results of the merchant's other tills that the
 * relay brought here. It reads the tables directly, not History: a cashier's History shows only their
 * own shift, and a second prompt charges the customer twice whoever sent the first.
 */
import { OPEN_STATES, type Environment, type PaymentState } from '../../../shared/domain.js';

/** Payments whose prompt may still reach the customer: open ones, and those that may have reached the service unanswered. */
const MAY_STILL_CHARGE: readonly PaymentState[] = [...OPEN_STATES, 'unconfirmed'];
import { sqlList } from '../../../shared/sql-list.js';
import type { Db } from '../storage/index.js';

/** A PAID payment this recent, same number and amount, makes a new prompt suspicious. */
export const RECENT_PAID_MS = 5 * 60_000;

export type SimilarFound = {
  state: 'open' | 'paid';
  /** Pesewas. */
  amount: number;
  msisdn: string;
  /** Started (open) or paid (PAID), epoch ms. */
  at: number;
  tillId: string;
  startedBy: string | null;
  /** Another till's name as its results gave it (null for this till's own payments: the caller names them). */
  tillName: string | null;
  thisTill: boolean;
};

type OwnRow = {
  state: PaymentState;
  amount: number;
  msisdn: string;
  created_at: number;
  completed_at: number | null;
  updated_at: number;
  till_id: string;
  staff_name: string | null;
};
type OtherRow = {
  amount: number;
  msisdn: string;
  completed_at: number;
  till_id: string;
  staff_name: string | null;
  till_name: string | null;
};

export class SimilarPayments {
  private readonly own;
  private readonly others;

  constructor(db: Db) {
    // Open first (a prompt may still be on the customer's phone), then the newest.
    this.own = db.prepare(
      `SELECT state, amount, msisdn, created_at, completed_at, updated_at, till_id, staff_name FROM payments
       WHERE environment = @environment AND msisdn = @msisdn AND amount = @amount
         AND (state IN (${sqlList(MAY_STILL_CHARGE)}) OR (state = 'success' AND coalesce(completed_at, updated_at) >= @since))
       ORDER BY state = 'success', created_at DESC LIMIT 1`,
    );
    // Results that are not one of this till's payments: another till's, as the relay delivered them.
    this.others = db.prepare(
      `SELECT t.amount, t.msisdn, t.completed_at, t.till_id, t.staff_name, n.name AS till_name
       FROM transactions t LEFT JOIN till_names n ON n.till_id = t.till_id
       WHERE t.environment = @environment AND t.msisdn = @msisdn AND t.amount = @amount AND t.status = 'SUCCESS'
         AND t.completed_at >= @since
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.environment = t.environment AND p.merchant_ref = t.client_reference)
       ORDER BY t.completed_at DESC LIMIT 1`,
    );
  }

  /** The earlier payment the cashier must be asked about before prompting `msisdn` for `amount` again, or null. */
  find(environment: Environment, msisdn: string, amount: number, now: number): SimilarFound | null {
    const params = { environment, msisdn, amount, since: now - RECENT_PAID_MS };
    const own = this.own.get(params) as OwnRow | undefined;
    if (own && own.state !== 'success') return ownFound(own, 'open', own.created_at);
    const other = this.others.get(params) as OtherRow | undefined;
    const ownPaidAt = own ? (own.completed_at ?? own.updated_at) : -Infinity;
    if (other && other.completed_at > ownPaidAt) {
      return {
        state: 'paid',
        amount: other.amount,
        msisdn: other.msisdn,
        at: other.completed_at,
        tillId: other.till_id,
        startedBy: other.staff_name,
        tillName: other.till_name,
        thisTill: false,
      };
    }
    return own ? ownFound(own, 'paid', ownPaidAt) : null;
  }
}

function ownFound(row: OwnRow, state: 'open' | 'paid', at: number): SimilarFound {
  return {
    state,
    amount: row.amount,
    msisdn: row.msisdn,
    at,
    tillId: row.till_id,
    startedBy: row.staff_name,
    tillName: null,
    thisTill: true,
  };
}
