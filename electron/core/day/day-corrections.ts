/**
 * Corrections for hand settlements a Z counted and the service's late result then changed. A payment settled
 * by hand is counted, with the hand's figures, by the first Z closed after it. When the service's own result
 * comes later (settle-by-hand's hand-result.ts):
 * - it disagrees: the row becomes the service's and is put back in no Z, so the next Z counts it; that Z also
 *   takes the hand figures back out;
 * - it agrees but its fee differs from the one counted (often none was typed by hand): the row keeps its Z
 *   with the service's figures; the next Z takes the counted figures out and counts the service's.
 * Over all Z reports the payment then counts once, as the service says.
 */
import type { Environment } from '../../../shared/domain.js';
import { formatAmount, parseAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type { Db } from '../storage/index.js';
import type { DayCorrection, DayRow } from './day-report.js';
import type { PaymentRow } from '../payments/index.js';
import { handReferenceOf } from '../payments/index.js';

type Settled = PaymentRow & { hand_at: number; service_status: 'SUCCESS' | 'FAILED' };
type Confirmed = Settled & { service_fee: number; z_number: number; counted_fee: string | null };

export class DayCorrections {
  private readonly overridden;
  private readonly confirmed;

  constructor(db: Db) {
    // The service's row is in no Z yet and the hand settlement came before the last close: a Z counted the hand's.
    // From the few payments settled by hand (only those have a hand_check; the partial index of migration 13),
    // not every row in no Z nor every payment.
    this.overridden = db.prepare(
      `SELECT p.*, t.status AS service_status FROM payments p INDEXED BY payments_by_hand
       JOIN transactions t ON t.environment = p.environment AND t.client_reference = p.merchant_ref
       WHERE p.environment = ? AND p.hand_outcome IS NOT NULL AND t.z_report_id IS NULL AND p.hand_check = 'overridden'
         AND p.hand_at < ?
       ORDER BY p.hand_at`,
    );
    // Confirmed with another fee than the hand's, and not yet corrected by a later Z: the fee the Z froze is read
    // from its frozen line (z_report_rows, migration 17; CSV order: reference 1, status 7, fee 9, through the
    // partial index of frozen lines) and compared with the service's. Through the partial
    // index of results settled by hand (migration 12), not the range of every closed row.
    this.confirmed = db.prepare(
      `SELECT p.*, t.status AS service_status, t.fee AS service_fee, z.number AS z_number,
         (SELECT json_extract(r.line, '$[9]') FROM z_report_rows r
          WHERE r.reference = t.reference AND r.z_report_id = z.id AND r.line IS NOT NULL
            AND json_extract(r.line, '$[7]') = 'SUCCESS' LIMIT 1) AS counted_fee
       FROM transactions t INDEXED BY transactions_by_hand
       JOIN payments p ON p.environment = t.environment AND p.merchant_ref = t.client_reference
       JOIN z_reports z ON z.id = t.z_report_id
       WHERE t.environment = ? AND t.settled_by_hand = 1 AND t.z_report_id IS NOT NULL AND t.status = 'SUCCESS'
         AND p.hand_check = 'confirmed' AND t.fee != coalesce(p.hand_fee, 0)
         AND NOT EXISTS (SELECT 1 FROM z_reports later, json_each(later.report, '$.corrections') c
           WHERE later.environment = t.environment AND later.id > t.z_report_id AND json_extract(c.value, '$.merchantRef') = t.client_reference)
       ORDER BY p.hand_at`,
    );
  }

  /** The corrections the next Z makes; `closedDayOf` names the Z that counted a hand settlement made at an instant. */
  list(environment: Environment, previousCloseAt: number | null, closedDayOf: (ms: number) => string | null): DayCorrection[] {
    if (previousCloseAt === null) return [];
    const overridden = (this.overridden.all(environment, previousCloseAt) as Settled[]).map((p) => {
      const hand = handRow(p, p.hand_outcome === 'paid' ? (p.hand_fee ?? 0) : 0);
      return correction(p, closedDayOf(p.hand_at), [hand]);
    });
    const confirmed = (this.confirmed.all(environment) as Confirmed[])
      .filter((p) => p.counted_fee !== null && parseAmount(p.counted_fee, { allowZero: true }) !== p.service_fee)
      .map((p) => {
        const counted = handRow(p, parseAmount(p.counted_fee as string, { allowZero: true }));
        const service: DayRow = { ...counted, fee: p.service_fee, net: p.amount - p.service_fee, correction: undefined, recount: true };
        return correction(p, `Z-${String(p.z_number).padStart(4, '0')}`, [counted, service]);
      });
    return [...overridden, ...confirmed];
  }
}

/** The figures a Z counted for a hand settlement, as a row taken back out (counted negative). */
function handRow(p: Settled, fee: number): DayRow {
  const paid = p.hand_outcome === 'paid';
  return {
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
}

/** The line of a correction: what its rows change in the totals (taken out, and counted anew). */
function correction(p: Settled, countedIn: string | null, rows: DayRow[]): DayCorrection {
  const signed = (row: DayRow, value: number) => (row.status === 'SUCCESS' ? (row.correction ? -value : value) : 0);
  const sum = (pick: (row: DayRow) => number) => formatAmount(rows.reduce((total, row) => total + signed(row, pick(row)), 0));
  return {
    rows,
    line: {
      merchantRef: p.merchant_ref,
      msisdn: displayMsisdn(p.msisdn),
      amount: formatAmount(p.amount),
      hand: p.hand_outcome === 'paid' ? 'PAID' : 'NOT PAID',
      handBy: p.hand_by_name,
      countedIn,
      service: p.service_status,
      gross: sum((row) => row.amount),
      fees: sum((row) => row.fee),
      net: sum((row) => row.net),
    },
  };
}
