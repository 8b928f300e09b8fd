/**
 * What a report says of this till's payments that ended without the service's acknowledgement (not_sent,
 * unconfirmed) since the previous close: their count and amount apart from every total, and the latest of them
 * one by one. A Z freezes both in its report; the next report counts only those that ended after its close.
 */
import { UNSENT_END_STATES, type Environment } from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import { FAILURES_LISTED } from '../../../shared/ipc/day-contract.js';
import type { DayUnsentLine, UnsentTotals } from '../../../shared/ipc/contract.js';
import { formatAmount } from '../../../shared/money.js';
import { displayMsisdn } from '../../../shared/phone.js';
import type { Db } from '../storage/index.js';
import { UnsentSums } from '../takings/index.js';
import type { PaymentRow } from '../payments/index.js';

export type DayUnsentRead = { unsent: UnsentTotals; unsentLines: DayUnsentLine[] };

const iso = (ms: number) => new Date(ms).toISOString();

export class DayUnsent {
  private readonly sums;
  private readonly latest;

  constructor(db: Db) {
    this.sums = new UnsentSums(db);
    this.latest = db.prepare(
      `SELECT * FROM payments WHERE environment = @environment AND state IN (${sqlList(UNSENT_END_STATES)})
         AND updated_at > @after AND updated_at <= @until
       ORDER BY updated_at DESC, id DESC LIMIT ${FAILURES_LISTED}`,
    );
  }

  /** Those that ended after `previousCloseAt` (null: before the first Z, every one) and by `at`. */
  read(environment: Environment, previousCloseAt: number | null, at: number): DayUnsentRead {
    const rows = (this.latest.all({ environment, after: previousCloseAt ?? -1, until: at }) as PaymentRow[]).reverse();
    return {
      unsent: this.sums.totals(environment, previousCloseAt, at),
      unsentLines: rows.map((p) => ({
        merchantRef: p.merchant_ref,
        startedAt: iso(p.created_at),
        endedAt: iso(p.updated_at),
        msisdn: displayMsisdn(p.msisdn),
        amount: formatAmount(p.amount),
        network: p.network,
        cashier: p.staff_name,
        state: p.state === 'not_sent' ? 'not_sent' : 'unconfirmed',
      })),
    };
  }
}
