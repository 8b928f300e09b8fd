/**
 * Takings and history at scale: builds a till database with 1,000,000 final transactions (a year,
 * five tills, three networks, the real insert path with its daily rollup) and 1,000,000 payments of
 * this till, then times a day's takings, a 30-day range and a history page (medians).
 *   npm run bench:takings [-- --rows 1000000]
 * Last line: {"rows":1000000,"dayMs":…,"rangeMs":…,"pageMs":…}
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { formatAmount, feeForAmount } from '../shared/money.js';
import { openDatabase } from '../electron/core/storage/index.js';
import { TransactionsStore } from '../electron/core/takings/index.js';
import { PaymentsRepo } from '../electron/core/payments/index.js';
import { Takings } from '../electron/core/takings/index.js';
import { History } from '../electron/core/history/index.js';
import type { WireTransaction } from '../shared/wire/transaction.js';
import { NETWORKS } from '../shared/domain.js';

const rowsArg = process.argv.indexOf('--rows');
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 1_000_000;
const TZ = 'Africa/Accra';
const DAYS = 365;
const END = Date.parse('2026-11-21T18:00:00Z');
const START = END - DAYS * 86_400_000;
const TILLS = ['TFRONT001', 'TBACK0002', 'TKIOSK003', 'TMARKET04', 'TSTALL005'];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** ULID-shaped ids built fast (the ulid package draws crypto randomness per character: ~40 µs each). */
function fastUlid(at: number, n: number): string {
  let time = '';
  for (let t = at, k = 0; k < 10; k += 1, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let tail = '';
  for (let v = n * 2654435761 + 7, k = 0; k < 16; k += 1, v = Math.floor(v / 32) + k * 977) tail += CROCKFORD[v % 32];
  return time + tail;
}

let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

const dir = mkdtempSync(join(tmpdir(), 'momo-takings-bench-'));
const db = openDatabase(join(dir, 'till.db'));
const store = new TransactionsStore(db, TZ);
const repo = new PaymentsRepo(db);

// A big page cache while building only (the app keeps SQLite's default); queries are timed below.
db.pragma('cache_size = -400000');
const built = performance.now();
const BATCH = 20_000;
for (let start = 0; start < ROWS; start += BATCH) {
  db.transaction(() => {
    for (let i = start; i < Math.min(ROWS, start + BATCH); i += 1) {
      const at = START + Math.floor((i / ROWS) * (END - START));
      const amount = 100 + Math.floor(rand() * 50_000);
      const success = rand() < 0.85;
      const fee = success ? feeForAmount(amount, 195) : 0;
      const till = TILLS[i % TILLS.length] as string;
      const id = fastUlid(at, i);
      const msisdn = `2332${String(40_000_000 + Math.floor(rand() * 9_999_999)).padStart(8, '0')}`;
      const network = NETWORKS[i % NETWORKS.length] as string;
      const tx = {
        reference: `TX_${id}`,
        clientReference: `${till}.${id}`,
        status: success ? 'SUCCESS' : 'FAILED',
        amount: formatAmount(amount),
        fee: formatAmount(fee),
        net: formatAmount(success ? amount - fee : 0),
        currency: 'GHS',
        customer: { msisdn, network },
        description: 'Bench sale',
        metadata: null,
        completedAt: new Date(at + 20_000).toISOString(),
      } as WireTransaction;
      store.insert('live', tx, i + 1, at + 20_000);
      repo.insert({
        id,
        request_id: `bench-${i}`,
        merchant_ref: `${till}.${id}`,
        environment: 'live',
        state: success ? 'success' : 'failed',
        amount,
        msisdn,
        msisdn_rev: [...msisdn].reverse().join(''),
        network,
        customer_name: null,
        description: 'Bench sale',
        request_body: '{}',
        reference: `TX_${id}`,
        till_id: till,
        created_at: at,
        updated_at: at,
      });
    }
  })();
}
db.pragma('cache_size = -2000'); // back to SQLite's default, as the app runs (no ANALYZE either)
console.log(`built ${ROWS} transactions + ${ROWS} payments in ${((performance.now() - built) / 1000).toFixed(1)} s (${dir})`);

const takings = new Takings(db);
const history = new History(db);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const time = (runs: number, fn: (i: number) => unknown): number => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    fn(i);
    samples.push(performance.now() - t);
  }
  return median(samples);
};
const dayOf = (offsetDays: number) => new Date(END - offsetDays * 86_400_000).toISOString().slice(0, 10);

const dayReport = takings.report('live', dayOf(0), dayOf(0), TZ);
console.log(`a day: ${dayReport.totals.count} transactions, gross GH₵${dayReport.totals.gross}`);
const dayMs = time(51, (i) => takings.report('live', dayOf(i % 30), dayOf(i % 30), TZ));
const rangeMs = time(51, (i) => takings.report('live', dayOf(29 + (i % 30)), dayOf(i % 30), TZ));
const firstPageMs = time(51, () => history.search('live', { page: 0, pageSize: 50 }, TZ));
const deepPageMs = time(51, (i) => history.search('live', { page: 20 + i, pageSize: 50 }, TZ));
const phoneMs = time(51, (i) => history.search('live', { query: String(1000 + i * 7), page: 0, pageSize: 50 }, TZ));
const refMs = time(51, () => history.search('live', { query: `TX_${ulid(END - 3_600_000).slice(0, 6)}`, page: 0, pageSize: 50 }, TZ));
const shortPrefixMs = time(21, () => history.search('live', { query: 'TX_', page: 0, pageSize: 50 }, TZ));
console.log(`"TX_" matches kept: ${history.search('live', { query: 'TX_', page: 0, pageSize: 50 }, TZ).total}`);
const dateMs = time(51, (i) => history.search('live', { date: dayOf(i % 30), page: 0, pageSize: 50 }, TZ));
// A till's merchantRef prefix matches a fifth of the LIVE rows; in TEST (no rows here) it must stay an index range.
const tillPrefixMs = time(21, () => history.search('live', { query: `${TILLS[0]}.`, page: 0, pageSize: 50 }, TZ));
const tillPrefixOtherEnvMs = time(21, () => history.search('test', { query: `${TILLS[0]}.`, page: 0, pageSize: 50 }, TZ));
const csvMs = time(5, (i) => takings.exportCsv('live', dayOf(i), dayOf(i)));
console.log(
  `history pages (median ms): first ${firstPageMs.toFixed(2)}, deep ${deepPageMs.toFixed(2)}, phone digits ${phoneMs.toFixed(2)}, reference ${refMs.toFixed(2)}, "TX_" (matches all) ${shortPrefixMs.toFixed(2)}, by date ${dateMs.toFixed(2)}, till merchantRef prefix ${tillPrefixMs.toFixed(2)} (TEST: ${tillPrefixOtherEnvMs.toFixed(2)}); a day's CSV ${csvMs.toFixed(1)} ms`,
);
const pageMs = Math.max(firstPageMs, deepPageMs, phoneMs, refMs, shortPrefixMs, dateMs, tillPrefixMs, tillPrefixOtherEnvMs);
db.close();
rmSync(dir, { recursive: true, force: true });
const round = (n: number) => Math.round(n * 1000) / 1000;
console.log(JSON.stringify({ rows: ROWS, dayMs: round(dayMs), rangeMs: round(rangeMs), pageMs: round(pageMs) }));
