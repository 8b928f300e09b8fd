/**
 * bench:owner-view (issue 21): one merchant with 1,000,000 events over 60 days (3 tills, 6 cashiers, 3
 * networks, one in ten failed) in a real relay.sqlite, the summary kept by its trigger as the commit
 * would. Then the owner's page's data, as the relay serves it: today's figures (by till, cashier and
 * network, plus the latest payments) and the last 30 days. Target: each median under 50 ms.
 * `npm run bench:owner-view [-- --events N]`; the last line is JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { localDate } from '../shared/local-date.js';
import { openRelayDatabase, SqliteOwnerView } from '../relay/store/sqlite/index.js';
import { dayFigures, daysFigures, ownerPayment } from '../relay/http/index.js';

const arg = process.argv.indexOf('--events');
const EVENTS = arg > 0 ? Number(process.argv[arg + 1]) : 1_000_000;
const DAYS = 60;
const TZ = 'Africa/Accra';
const TARGET_MS = 50;
const MERCHANT = 'MCH_default';

const dir = mkdtempSync(join(tmpdir(), 'owner-bench-'));
const db = openRelayDatabase(dir);
const now = Date.now();
const start = now - DAYS * 86_400_000;
const insert = db.prepare(
  `INSERT INTO events (reference, client_reference, environment, key_id, received_at, webhook_created_at, transaction_json,
     first_timestamp, latest_timestamp) VALUES (?, ?, 'live', 'pk_live_Bench0001', ?, ?, ?, 0, 0)`,
);
const networks = ['MTN', 'VODAFONE', 'AIRTELTIGO'];
const t0 = performance.now();
const fill = db.transaction((from: number, to: number) => {
  for (let i = from; i < to; i++) {
    const at = new Date(start + Math.floor((i / EVENTS) * (now - start))).toISOString();
    const ok = i % 10 !== 0;
    const amount = 100 + (i % 5000);
    const fee = ok ? Math.floor(amount / 100) : 0;
    const tx = {
      reference: `TX_${i}`,
      clientReference: `till:${i}`,
      status: ok ? 'SUCCESS' : 'FAILED',
      amount: (amount / 100).toFixed(2),
      fee: (fee / 100).toFixed(2),
      net: ok ? ((amount - fee) / 100).toFixed(2) : '0.00',
      currency: 'GHS',
      customer: { msisdn: `2332${String(i % 100_000_000).padStart(8, '0')}`, network: networks[i % 3] },
      description: 'Counter sale',
      metadata: { till: `till-${i % 3}`, tillName: `Till ${i % 3}`, cashierId: `c-${i % 6}`, cashier: `Cashier ${i % 6}` },
      completedAt: at,
    };
    insert.run(`TX_${i}`, `till:${i}`, at, at, JSON.stringify(tx));
  }
});
for (let i = 0; i < EVENTS; i += 50_000) fill(i, Math.min(EVENTS, i + 50_000));
console.log(`${EVENTS} events with their summary written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const view = new SqliteOwnerView(db, MERCHANT);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
async function time(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    out.push(performance.now() - s);
  }
  return median(out);
}
const today = localDate(now, TZ);
const todayMs = await time(31, async () => {
  await dayFigures(view, MERCHANT, 'live', today, TZ);
  (await view.latest(MERCHANT, 'live', 20)).map(ownerPayment);
});
const daysMs = await time(31, () => daysFigures(view, MERCHANT, 'live', today, TZ, 30));
const day = await dayFigures(view, MERCHANT, 'live', today, TZ);
console.log(`today: ${day.totals.count} payments, gross ${day.totals.gross} pesewas; median ${todayMs.toFixed(2)} ms`);
console.log(`30 days: median ${daysMs.toFixed(2)} ms (target ${TARGET_MS} ms each)`);
db.close();
rmSync(dir, { recursive: true, force: true });
const round = (n: number) => Math.round(n * 1000) / 1000;
const ok = todayMs < TARGET_MS && daysMs < TARGET_MS;
console.log(JSON.stringify({ events: EVENTS, todayMs: round(todayMs), daysMs: round(daysMs), targetMs: TARGET_MS, ok }));
if (!ok) process.exitCode = 1;
