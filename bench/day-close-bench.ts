/**
 * The day's close at scale: a till database with a history of final transactions in no Z yet (an install
 * whose first close counts everything since it started; five tills, three networks, 15% failed, the real
 * insert path), then times the X report over it, the first close, and then closes of a busy day each
 * (medians of the runs).
 *   npm run bench:dayclose [-- --rows 100000 --day 3000 --runs 5]
 * Last line: {"rows":…,"xMs":…,"firstCloseMs":…,"dayRows":…,"dayCloseMs":…}
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { feeForAmount, formatAmount } from '../shared/money.js';
import { NETWORKS } from '../shared/domain.js';
import type { WireTransaction } from '../shared/wire/transaction.js';
import { openDatabase } from '../electron/core/storage/index.js';
import { DayClose } from '../electron/core/day/index.js';
import { TransactionsStore } from '../electron/core/takings/index.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = arg('rows', 100_000);
const DAY_ROWS = arg('day', 3_000);
const RUNS = arg('runs', 5);
const TZ = 'Africa/Accra';
const TILLS = ['TFRONT001', 'TBACK0002', 'TKIOSK003', 'TMARKET04', 'TSTALL005'];
let clock = Date.parse('2025-11-22T08:00:00Z');

const dir = mkdtempSync(join(tmpdir(), 'momo-dayclose-bench-'));
const db = openDatabase(join(dir, 'till.db'));
const store = new TransactionsStore(db, TZ);
const day = new DayClose(
  db,
  () => clock,
  () => ({ id: 'TFRONT1', name: 'Front' }),
);
let made = 0;

/** `count` final results, one a second from the clock on, in batches of one SQL transaction each. */
function results(count: number): void {
  for (let start = 0; start < count; start += 10_000) {
    db.transaction(() => {
      for (let i = start; i < Math.min(count, start + 10_000); i += 1, made += 1) {
        const amount = 100 + ((made * 7919) % 50_000);
        const success = made % 100 >= 15;
        const fee = success ? feeForAmount(amount, 195) : 0;
        const till = TILLS[made % TILLS.length] as string;
        clock += 1000;
        const tx = {
          reference: `TX_${String(made).padStart(12, '0')}`,
          clientReference: `${till}.${String(made).padStart(26, '0')}`,
          status: success ? 'SUCCESS' : 'FAILED',
          amount: formatAmount(amount),
          fee: formatAmount(fee),
          net: formatAmount(success ? amount - fee : 0),
          currency: 'GHS',
          customer: { msisdn: `23324${String(1_000_000 + (made % 8_999_999)).padStart(7, '0')}`, network: NETWORKS[made % 3] },
          description: 'Bench sale',
          metadata: { till, cashierId: `st-${made % 4}`, cashier: `Cashier ${made % 4}` },
          completedAt: new Date(clock).toISOString(),
        } as WireTransaction;
        store.insert('live', tx, made, clock);
      }
    })();
  }
}

function timed(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const ms = (value: number) => Math.round(value * 10) / 10;

try {
  results(ROWS);
  const xRuns = Array.from({ length: RUNS }, () => timed(() => day.xReport('live', TZ)));
  console.log(`X report over ${ROWS} rows: ${xRuns.map(ms).join(', ')} ms`);
  const firstCloseMs = timed(() => day.close('live', TZ, 0, null));
  console.log(`first close over ${ROWS} rows: ${ms(firstCloseMs)} ms`);
  const dayRuns: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    results(DAY_ROWS);
    dayRuns.push(timed(() => day.close('live', TZ, run + 1, null)));
  }
  console.log(`close of a day of ${DAY_ROWS} rows: ${dayRuns.map(ms).join(', ')} ms`);
  console.log(
    JSON.stringify({
      rows: ROWS,
      xMs: ms(median(xRuns)),
      firstCloseMs: ms(firstCloseMs),
      dayRows: DAY_ROWS,
      dayCloseMs: ms(median(dayRuns)),
    }),
  );
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
