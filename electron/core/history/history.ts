/**
 * History of this till's payments in one environment, newest first, paged. A query matches a
 * receipt number (R-000123, r-123), a reference or a merchantRef by prefix in any letter case, or the customer's number in any form people
 * write it (shared/history-query.ts), through
 * indexes only: the phone number is also stored reversed so "ends with" is an index range. A search
 * keeps at most MAX_MATCHES matches per field.
 */
import type { IpcResponse } from '../../../shared/ipc/contract.js';
import type { Db } from '../storage/index.js';
import { numberEnd, referencePrefixes } from '../../../shared/history-query.js';
import { receiptNoOf } from '../../../shared/receipt-number.js';
import { dayBoundsMs } from '../../../shared/local-date.js';
import { toPaymentViewAt, type PaymentRow } from '../payments/index.js';
import type { Environment } from '../../../shared/domain.js';
import type { ShiftScope } from './cashier-scope.js';

export { dayBoundsMs };

/** A search returns at most this many matches per field (reference, merchantRef, phone digits). */
export const MAX_MATCHES = 1000;

/** `cashierId`: one person's payments (null: started with nobody signed in); ignored inside a cashier's shift scope. */
type SearchInput = { query?: string; date?: string; page: number; pageSize: number; cashierId?: string | null };

/** The smallest string greater than every string starting with `prefix`. */
const after = (prefix: string) => `${prefix}\uffff`;

/** A search as SQL: `matches`, the union of index ranges a query looks in (null: every payment); `where`, the filters. */
type Plan = { matches: string | null; where: string[]; params: Record<string, string | number | null> };

type Page = { rows: PaymentRow[]; total: number };
type Statement = ReturnType<Db['prepare']>;

export class History {
  private readonly countAll;
  /** Each search's statements by SQL text: a few shapes (which filters, which query arms), prepared once each. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.countAll = db.prepare('SELECT total FROM payment_counts WHERE environment = ?');
  }

  search(
    environment: Environment,
    input: SearchInput,
    timeZone: string,
    scope: ShiftScope = { shiftId: null },
  ): IpcResponse<'history:search'> {
    const plan = planOf(environment, input, timeZone, scope);
    const params = { ...plan.params, limit: input.pageSize, offset: input.page * input.pageSize };
    const { rows, total } = plan.matches === null ? this.every(plan, params) : this.matching(plan.matches, plan, params);
    const now = this.now();
    return {
      items: rows.map((row) => toPaymentViewAt(row, now)),
      total,
      page: input.page,
    };
  }

  /** No query: the page straight from the created_at index; the total kept by triggers when nothing else filters. */
  private every(plan: Plan, params: Plan['params']): Page {
    const filter = plan.where.join(' AND ');
    const rows = this.prepared(`SELECT p.* FROM payments p WHERE ${filter} ORDER BY p.created_at DESC LIMIT @limit OFFSET @offset`).all(
      params,
    ) as PaymentRow[];
    const total =
      plan.where.length === 1
        ? ((this.countAll.get(params.environment) as { total: number } | undefined)?.total ?? 0)
        : (this.prepared(`SELECT count(*) AS n FROM payments p WHERE ${filter}`).get(params) as { n: number }).n;
    return { rows, total };
  }

  /**
   * A query: its matches (at most MAX_MATCHES per arm, each read from its index alone: its rowid) filtered once
   * into a materialized list of rowids and times, which gives both the page and the total; only the page's
   * payments are read whole. Newest first, then the last stored. Only a page past the end reads no row, and so
   * counts them again.
   */
  private matching(matches: string, plan: Plan, params: Plan['params']): Page {
    // CROSS JOIN keeps the (small) union as the outer loop: without statistics SQLite would rather
    // walk the whole created_at index and probe the union for each row.
    const found = `SELECT p.rowid AS rid, p.created_at FROM (${matches}) AS m CROSS JOIN payments p ON p.rowid = m.rid
      WHERE ${plan.where.join(' AND ')}`;
    const rows = this.prepared(
      `WITH found AS MATERIALIZED (${found})
       SELECT p.*, (SELECT count(*) FROM found) AS found_total
       FROM (SELECT rid, created_at FROM found ORDER BY created_at DESC, rid DESC LIMIT @limit OFFSET @offset) AS page
       CROSS JOIN payments p ON p.rowid = page.rid ORDER BY page.created_at DESC, page.rid DESC`,
    ).all(params) as Array<PaymentRow & { found_total: number }>;
    const total = rows[0]?.found_total ?? (this.prepared(`SELECT count(*) AS n FROM (${found})`).get(params) as { n: number }).n;
    return { rows: rows.map(({ found_total: _, ...row }) => row), total };
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

/** The SQL of a search: its filters, and the index ranges its query looks in. */
function planOf(environment: Environment, input: SearchInput, timeZone: string, scope: ShiftScope): Plan {
  const where: string[] = ['p.environment = @environment'];
  const params: Plan['params'] = { environment };
  if (scope.shiftId !== null) {
    where.push('p.shift_id = @shiftId');
    params.shiftId = scope.shiftId;
  } else if (input.cashierId !== undefined) {
    where.push('p.staff_id IS @cashierId');
    params.cashierId = input.cashierId;
  }
  if (input.date) {
    const [start, end] = dayBoundsMs(input.date, timeZone);
    where.push('p.created_at >= @start AND p.created_at < @end');
    params.start = start;
    params.end = end;
  }
  const query = (input.query ?? '').trim();
  return { matches: query ? matchesOf(query, params) : null, where, params };
}

/**
 * The union of index ranges a query looks in. Each alternative is its own index range; their union is small,
 * then sorted. Each arm keeps at most MAX_MATCHES ids (the last in index order: references and merchantRefs are
 * time-sortable), so a very short prefix such as "TX_" cannot make a page sort the whole table.
 */
function matchesOf(query: string, params: Plan['params']): string {
  const arm = (where: string, order: string) =>
    `SELECT rid FROM (SELECT rowid AS rid FROM payments WHERE ${where} ORDER BY ${order} DESC LIMIT ${MAX_MATCHES})`;
  const terms = referencePrefixes(query).flatMap((prefix, i) => {
    params[`q${i}`] = prefix;
    params[`q${i}End`] = after(prefix);
    return [
      arm(`environment = @environment AND reference >= @q${i} AND reference < @q${i}End`, 'reference'),
      arm(`environment = @environment AND merchant_ref >= @q${i} AND merchant_ref < @q${i}End`, 'merchant_ref'),
    ];
  });
  const receiptNo = receiptNoOf(query);
  if (receiptNo !== null) {
    terms.push('SELECT rowid AS rid FROM payments WHERE environment = @environment AND receipt_no = @receiptNo');
    params.receiptNo = receiptNo;
  }
  const digits = numberEnd(query);
  if (digits) {
    const rev = [...digits].reverse().join('');
    terms.push(arm('environment = @environment AND msisdn_rev >= @rev AND msisdn_rev < @revEnd', 'msisdn_rev'));
    params.rev = rev;
    params.revEnd = after(rev);
  }
  return terms.join(' UNION ');
}
