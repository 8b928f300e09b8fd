/**
 * This till's payments that ended without the service's acknowledgement (not_sent, unconfirmed), counted apart
 * from the takings: neither paid nor failed. They are counted by the instant they ended (updated_at, which no
 * later change touches while they stay in that state), as takings count a result by its completion. Served by
 * the payments (environment, state) index: only the few such payments are read.
 */
import { formatAmount } from '../../../shared/money.js';
import { UNSENT_END_STATES, type Environment } from '../../../shared/domain.js';
import { sqlList } from '../../../shared/sql-list.js';
import type { UnsentTotals } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';

/** One person's payments (a staff id; null: nobody signed in); undefined: everyone's. */
type Who = string | null | undefined;

export class UnsentSums {
  private readonly sums;

  constructor(db: Db) {
    this.sums = db.prepare(
      `SELECT state, count(*) AS count, coalesce(sum(amount), 0) AS amount FROM payments
       WHERE environment = @environment AND state IN (${sqlList(UNSENT_END_STATES)})
         AND updated_at > @after AND updated_at <= @until AND (@all OR staff_id IS @cashier)
       GROUP BY state`,
    );
  }

  /** Those that ended in (after, until], in Unix ms; `after` null: from the first. */
  totals(environment: Environment, after: number | null, until: number, cashierId?: Who): UnsentTotals {
    const rows = this.sums.all({
      environment,
      after: after ?? -1,
      until,
      all: cashierId === undefined ? 1 : 0,
      cashier: cashierId ?? null,
    }) as { state: string; count: number; amount: number }[];
    const of = (state: string) => {
      const row = rows.find((r) => r.state === state);
      return { count: row?.count ?? 0, amount: formatAmount(row?.amount ?? 0) };
    };
    return { notSent: of('not_sent'), unconfirmed: of('unconfirmed') };
  }
}
