/**
 * bench:owner-view: one merchant with 1,000,000 events over 60 days (3 tills, 6 cashiers, 3
 * networks, one in ten failed), the summary summed by the store's own SQL, which writes what the commit would
 * (test/unit/relay/store/sqlite/owner-summary.test.ts and pg-owner-summary.test.ts compare the two): in a
 * real relay.sqlite, and with `--store postgres` in a throwaway PostgreSQL 15 cluster (or
 * `--database-url`, an empty database). Then the owner's page's data, as the relay serves it: today's
 * figures (by till, cashier and network, plus the latest payments) and the last 30 days. Target: each
 * median under 50 ms. `npm run bench:owner-view [-- --store sqlite|postgres|all] [-- --events N]`;
 * one JSON line per store (`{"store":…,"todayMs":…,"daysMs":…}`), the last one last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { localDate } from '../shared/local-date.js';
import type { OwnerViewStore } from '../relay/store/index.js';
import { openRelayDatabase, rebuildOwnerSummary, SqliteOwnerView } from '../relay/store/sqlite/index.js';
import { dayFigures, daysFigures, ownerPayment } from '../relay/http/index.js';
import { pgOwnerBench } from './owner-view-pg.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    store: { type: 'string', default: 'sqlite' },
    'database-url': { type: 'string' },
  },
});
const EVENTS = Number(values.events);
if (!Number.isInteger(EVENTS) || EVENTS < 1) throw new Error('--events: a whole number from 1');
const STORES = values.store === 'all' ? ['sqlite', 'postgres'] : [values.store];
if (!STORES.every((s) => s === 'sqlite' || s === 'postgres')) throw new Error('--store: sqlite, postgres or all');
const DAYS = 60;
const TZ = 'Africa/Accra';
const TARGET_MS = 50;
const now = Date.now();
const start = now - DAYS * 86_400_000;

type Prepared = { view: OwnerViewStore; merchant: string; fillSeconds: number; close(): Promise<void> };

function sqliteBench(): Prepared {
  const dir = mkdtempSync(join(tmpdir(), 'owner-bench-'));
  const db = openRelayDatabase(dir);
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
  rebuildOwnerSummary(db);
  const fillSeconds = (performance.now() - t0) / 1000;
  return {
    view: new SqliteOwnerView(db, 'MCH_default'),
    merchant: 'MCH_default',
    fillSeconds,
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function prepare(store: string): Promise<Prepared> {
  if (store === 'sqlite') return sqliteBench();
  const merchant = 'MCH_bench';
  const pg = await pgOwnerBench({ databaseUrl: values['database-url'], merchant, events: EVENTS, start, now });
  return { ...pg, merchant };
}

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
const round = (n: number) => Math.round(n * 1000) / 1000;

let allOk = true;
for (const store of STORES) {
  const { view, merchant, fillSeconds, close } = await prepare(store);
  console.log(`${store}: ${EVENTS} events with their summary written in ${fillSeconds.toFixed(1)} s`);
  try {
    const today = localDate(now, TZ);
    const todayMs = await time(31, async () => {
      await dayFigures(view, merchant, 'live', today, TZ);
      (await view.latest(merchant, 'live', 20)).map(ownerPayment);
    });
    const daysMs = await time(31, () => daysFigures(view, merchant, 'live', today, TZ, 30));
    const day = await dayFigures(view, merchant, 'live', today, TZ);
    console.log(`${store} today: ${day.totals.count} payments, gross ${day.totals.gross} pesewas; median ${todayMs.toFixed(2)} ms`);
    console.log(`${store} 30 days: median ${daysMs.toFixed(2)} ms (target ${TARGET_MS} ms each)`);
    const ok = todayMs < TARGET_MS && daysMs < TARGET_MS;
    allOk &&= ok;
    const line = {
      store,
      events: EVENTS,
      fillSeconds: round(fillSeconds),
      todayMs: round(todayMs),
      daysMs: round(daysMs),
      targetMs: TARGET_MS,
      ok,
    };
    console.log(JSON.stringify(line));
  } finally {
    await close();
  }
}
if (!allOk) process.exitCode = 1;
