/**
 * Takings read the daily rollup only: whatever mix of results arrives (cashiers, nobody
 * signed in, settled by hand, then confirmed or overridden by the service), every figure of a report, for
 * everyone and for each cashier, equals the same figure summed from the transactions themselves.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../../electron/core/storage/database.js';
import { TransactionsStore } from '../../../../electron/core/takings/transactions-store.js';
import { Takings, type CashierFilter } from '../../../../electron/core/takings/takings.js';
import { SUMS_SQL, toTotals, type Sums } from '../../../../electron/core/takings/sums.js';
import { formatAmount } from '../../../../shared/money.js';
import type { WireTransaction } from '../../../../shared/wire/transaction.js';
import { openTempTillDb } from '../../../support/temp-till-db.js';

let db: Db;
let close: () => void;
beforeAll(() => ({ db, close } = openTempTillDb('momo-rollup-')));
afterAll(() => close());

const CASHIERS = [null, { id: 'S_AMA', name: 'Ama' }, { id: 'S_KOFI', name: 'Kofi' }];
const DAYS = ['2026-11-01', '2026-11-02', '2026-11-03'];
const ULID = '01JD0000000000000000000000';

const result = fc.record({
  cashier: fc.constantFrom(...CASHIERS),
  day: fc.constantFrom(...DAYS),
  network: fc.constantFrom('MTN', 'TELECEL', 'AIRTELTIGO'),
  till: fc.constantFrom('TFRONT1', 'TBACK02'),
  success: fc.boolean(),
  pesewas: fc.integer({ min: 100, max: 500_000 }),
  // 'service': the service's result; 'hand': settled by hand only; then the service agreeing or not.
  kind: fc.constantFrom('service', 'hand', 'hand-confirmed', 'hand-overridden'),
});

type Result = typeof result extends fc.Arbitrary<infer T> ? T : never;

function wire(i: number, r: Result, success: boolean): WireTransaction {
  const fee = Math.floor(r.pesewas / 100);
  return {
    reference: `TX${i}`,
    clientReference: `${r.till}.${ULID.slice(0, 20)}${String(i).padStart(6, '0')}`,
    status: success ? 'SUCCESS' : 'FAILED',
    amount: formatAmount(r.pesewas),
    fee: formatAmount(success ? fee : 0),
    net: formatAmount(success ? r.pesewas - fee : 0),
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: r.network },
    description: 'sale',
    metadata: r.cashier ? { till: r.till, cashierId: r.cashier.id, cashier: r.cashier.name } : null,
    completedAt: `${r.day}T12:00:00.000Z`,
  } as WireTransaction;
}

function land(store: TransactionsStore, i: number, r: Result): void {
  const tx = wire(i, r, r.success);
  if (r.kind === 'service') return void store.insert('live', tx, i, 0);
  const hand = `HAND${i}`;
  store.insertByHand(
    {
      environment: 'live',
      reference: hand,
      client_reference: tx.clientReference,
      status: tx.status,
      amount: r.pesewas,
      fee: 0,
      net: tx.status === 'SUCCESS' ? r.pesewas : 0,
      msisdn: '233241234567',
      network: r.network,
      description: 'sale',
      till_id: r.till,
      completed_at: Date.parse(tx.completedAt),
      staff_id: r.cashier?.id ?? null,
      staff_name: r.cashier?.name ?? null,
    },
    0,
  );
  if (r.kind === 'hand-confirmed') store.replaceHandRow('live', hand, tx, i, 0, true);
  if (r.kind === 'hand-overridden') store.replaceHandRow('live', hand, wire(i, r, !r.success), i, 0, false);
}

/** The figures summed from the transactions (what takings read before the rollup had cashiers). */
function fromRows(where: string, params: unknown[]) {
  const sums = (extra: string) =>
    toTotals(db.prepare(`SELECT ${SUMS_SQL} FROM transactions WHERE environment = 'live' AND ${where} ${extra}`).get(...params) as Sums);
  const byCashier = (
    db
      .prepare(
        `SELECT staff_id, max(staff_name) AS staff_name, ${SUMS_SQL} FROM transactions WHERE environment = 'live'
         AND local_date BETWEEN ? AND ? GROUP BY staff_id ORDER BY staff_name`,
      )
      .all(DAYS[0], DAYS[2]) as (Sums & { staff_id: string | null; staff_name: string | null })[]
  ).map((r) => ({ cashierId: r.staff_id, cashier: r.staff_name, ...toTotals(r) }));
  return { totals: sums(''), byHand: sums('AND settled_by_hand = 1'), byCashier };
}

describe('takings from the rollup', () => {
  it('equal the figures summed from the transactions, for everyone and for each cashier', () => {
    let next = 0;
    fc.assert(
      fc.property(fc.array(result, { maxLength: 25 }), (results) => {
        db.exec('DELETE FROM transactions; DELETE FROM daily_takings;');
        const store = new TransactionsStore(db, 'Africa/Accra');
        db.transaction(() => results.forEach((r) => land(store, (next += 1), r)))();
        const takings = new Takings(db);
        const filters: CashierFilter[] = [undefined, null, 'S_AMA', 'S_KOFI'];
        for (const cashierId of filters) {
          const report = takings.report('live', DAYS[0]!, DAYS[2]!, 'Africa/Accra', cashierId);
          const who = cashierId === undefined ? '1' : 'staff_id IS ?';
          const expected = fromRows(`local_date BETWEEN ? AND ? AND ${who}`, [
            DAYS[0],
            DAYS[2],
            ...(cashierId === undefined ? [] : [cashierId]),
          ]);
          expect(report.totals).toEqual(expected.totals);
          expect(report.byHand).toEqual(expected.byHand);
          expect(report.byCashier).toEqual(expected.byCashier);
        }
      }),
      { numRuns: 60 },
    );
  });
});
