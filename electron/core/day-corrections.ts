/**
 * Corrections for hand settlements the service overrode after a close. A payment settled by hand is
 * counted, with the hand's figures, by the first Z closed after it; when the service's own result comes
 * later and disagrees, settle-by-hand's hand-result.ts replaces the row with the service's and puts it back
 * in no Z, so the next Z counts the service's result. That Z also takes the hand figures back out with a
 * correction line: over all Z reports the payment is then counted once, as the service says.
 */
import type { Environment } from '../../shared/domain.js';
import { formatAmount } from '../../shared/money.js';
import { displayMsisdn } from '../../shared/phone.js';
import type { Db } from './database.js';
import type { DayCorrection, DayRow } from './day-report.js';
import type { PaymentRow } from './payments-repo.js';
import { handReferenceOf } from './settle-by-hand.js';

type Overridden = PaymentRow & { service_status: 'SUCCESS' | 'FAILED'; hand_at: number };

export class DayCorrections {
  private readonly overridden;

  constructor(db: Db) {
    // The service's row is in no Z yet and the hand settlement came before the last close: a Z counted the hand's.
    this.overridden = db.prepare(
      `SELECT p.*, t.status AS service_status FROM transactions t
       JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference
       WHERE t.environment = ? AND t.z_report_id IS NULL AND p.hand_check = 'overridden' AND p.hand_at < ?
       ORDER BY p.hand_at`,
    );
  }

  /** The corrections the next Z makes; `closedDayOf` names the Z that counted a hand settlement made at an instant. */
  list(environment: Environment, previousCloseAt: number | null, closedDayOf: (ms: number) => string | null): DayCorrection[] {
    if (previousCloseAt === null) return [];
    return (this.overridden.all(environment, previousCloseAt) as Overridden[]).map((p) => correctionOf(p, closedDayOf(p.hand_at)));
  }
}

function correctionOf(p: Overridden, countedIn: string | null): DayCorrection {
  const paid = p.hand_outcome === 'paid';
  const fee = paid ? (p.hand_fee ?? 0) : 0;
  const row: DayRow = {
    reference: handReferenceOf(p),
    client_reference: p.merchant_ref,
    status: paid ? 'SUCCESS' : 'FAILED',
    amount: p.amount,
    fee,
    net: paid ? p.amount - fee : 0,
    msisdn: p.msisdn,
    network: p.network,
    description: p.description,
    till_id: p.till_id,
    staff_id: p.staff_id,
    staff_name: p.staff_name,
    completed_at: p.hand_at,
    started_at: p.created_at,
    reason: null,
    settled_by_hand: 1,
    correction: true,
  };
  return {
    row,
    line: {
      merchantRef: p.merchant_ref,
      msisdn: displayMsisdn(p.msisdn),
      amount: formatAmount(p.amount),
      hand: paid ? 'PAID' : 'NOT PAID',
      handBy: p.hand_by_name,
      countedIn,
      service: p.service_status,
      gross: formatAmount(paid ? -row.amount : 0),
      fees: formatAmount(paid ? -row.fee : 0),
      net: formatAmount(paid ? -row.net : 0),
    },
  };
}
