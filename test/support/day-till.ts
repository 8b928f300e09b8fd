/** A till's day on a real SQLite file, for the day-close tests: its stores, its DayClose, and rows to fill it. */
import { afterEach, beforeEach } from 'vitest';
import type { Db } from '../../electron/core/storage/database.js';
import { DayClose } from '../../electron/core/day/day-close.js';
import { PaymentsRepo } from '../../electron/core/payments/payments-repo.js';
import { TransactionsStore } from '../../electron/core/takings/transactions-store.js';
import { paymentRow } from './payment-rows.js';
import { openTempTillDb } from './temp-till-db.js';
import { dayResult, merchantRef } from './day-rows.js';

export type DayTill = {
  /** The till's clock: back at the start time before each test, moved by the test. */
  now: number;
  db: Db;
  store: TransactionsStore;
  repo: PaymentsRepo;
  day: DayClose;
  /** One of this till's payments started at `at`, awaiting its result. */
  started(id: string, at: number, overrides?: Parameters<typeof paymentRow>[1]): void;
  /** A result from the relay, completed now unless said otherwise. */
  result(ref: string, opts?: Parameters<typeof dayResult>[1]): ReturnType<TransactionsStore['insert']>;
};

/**
 * Opens a fresh till database (folder named from `prefix`) before each test as till TFRONT1 "Front counter"
 * in `timeZone`, its clock at `start`, and removes it after. The fields are replaced each test.
 */
export function dayTill(prefix: string, timeZone: string, start: number): DayTill {
  let close = (): void => {};
  const clock = (): number => t.now;
  const t = {
    now: start,
    started(id, at, overrides = {}) {
      t.repo.insert(
        paymentRow(id, {
          merchant_ref: merchantRef('TFRONT1', id),
          till_id: 'TFRONT1',
          state: 'awaiting_customer',
          created_at: at,
          updated_at: at,
          ...overrides,
        }),
      );
    },
    result: (ref, opts = {}) =>
      t.store.insert(opts.env ?? 'test', dayResult(ref, { completedAt: new Date(clock()).toISOString(), ...opts }), null, clock()),
  } as DayTill;
  beforeEach(() => {
    t.now = start;
    const opened = openTempTillDb(prefix);
    close = opened.close;
    t.db = opened.db;
    t.store = new TransactionsStore(t.db, timeZone);
    t.repo = new PaymentsRepo(t.db);
    t.day = new DayClose(t.db, clock, () => ({ id: 'TFRONT1', name: 'Front counter' }));
  });
  afterEach(() => close());
  return t;
}
