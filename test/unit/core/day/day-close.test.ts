/** X and Z reports on a real SQLite file: figures, numbering per environment, immutability, late results. */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { OVERDUE_AFTER_MS } from '../../../../shared/overdue.js';
import { merchantRef } from '../../../support/day-rows.js';
import { dayTill } from '../../../support/day-till.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T08:00:00Z');
const t = dayTill('momo-day-', TZ, T0);
const { started, result } = t;

describe('the X report', () => {
  it('sums the day so far by cashier, till and network, lists failures and awaiting payments, and stores nothing', () => {
    t.db.prepare("INSERT INTO till_names (till_id, name, seen_at) VALUES ('TBACK02', 'Back room', 1)").run();
    started('01A', T0, { staff_id: 'ama', staff_name: 'Ama', network: 'TELECEL', amount: 1000, state: 'success' });
    result('TX1', { merchantRef: merchantRef('TFRONT1', '01A'), amount: '10.00', fee: '0.20', net: '9.80', cashier: ['ama', 'Ama'] });
    result('TX2', { merchantRef: merchantRef('TBACK02', '01B'), status: 'FAILED', amount: '5.00', cashier: ['kofi', 'Kofi'] });
    result('TX3', { merchantRef: merchantRef('TBACK02', '01C'), amount: '2.50', fee: '0.05', net: '2.45', cashier: ['kofi', 'Kofi'] });
    result('TXL', { amount: '99.00', fee: '1.00', net: '98.00', env: 'live' });
    started('01P', t.now - 60_000, { msisdn: '233201234567', amount: 700 });
    started('01V', t.now - OVERDUE_AFTER_MS - 1, { amount: 800 });

    const x = t.day.xReport('test', TZ);
    expect(x.label).toBe('X');
    expect(x.totals).toEqual({ count: 3, succeeded: 2, failed: 1, gross: '12.50', fees: '0.25', net: '12.25' });
    expect(x.byCashier.map((c) => [c.cashier, c.count, c.gross])).toEqual([
      ['Ama', 1, '10.00'],
      ['Kofi', 2, '2.50'],
    ]);
    expect(x.byTill.map((t) => [t.tillId, t.tillName, t.count])).toEqual([
      ['TBACK02', 'Back room', 2],
      ['TFRONT1', 'Front counter', 1],
    ]);
    // This till's own sandbox result counts under the network the cashier charged.
    expect(x.byNetwork.map((n) => [n.network, n.count])).toEqual([
      ['SANDBOX', 2],
      ['TELECEL', 1],
    ]);
    expect(x.failures).toEqual([
      expect.objectContaining({ reference: 'TX2', msisdn: '024 123 4567', amount: '5.00', till: 'Back room', cashier: 'Kofi' }),
    ]);
    expect(x.awaiting.map((a) => [a.merchantRef, a.status])).toEqual([
      [merchantRef('TFRONT1', '01V'), 'overdue'],
      [merchantRef('TFRONT1', '01P'), 'pending'],
    ]);
    expect(x.awaiting[0]?.whatToDo).toMatch(new RegExp(`dashboard.*${merchantRef('TFRONT1', '01V')}.*replay.*settle it by hand`));
    expect(x.awaiting[1]?.whatToDo).toMatch(/^Wait/);
    expect(x.awaiting[1]?.msisdn).toBe('020 123 4567');
    expect(t.day.list('test')).toEqual([]);
    expect(t.db.prepare('SELECT count(*) AS n FROM transactions WHERE z_report_id IS NOT NULL').get()).toEqual({ n: 0 });
  });
});

describe('closing the day', () => {
  it('numbers Z reports per environment, and a second close covers only the rows since the first', () => {
    result('TX1', { amount: '10.00', fee: '0.20', net: '9.80' });
    result('TXL', { env: 'live', amount: '50.00', fee: '1.00', net: '49.00' });
    const x = t.day.xReport('test', TZ);
    t.now += 1000;
    const first = t.day.close('test', TZ, 0, { id: 'ama', name: 'Ama' });
    expect(first.report).toEqual({ ...x, kind: 'z', label: 'Z-0001', number: 1, at: new Date(t.now).toISOString(), closedBy: 'Ama' });
    const live = t.day.close('live', TZ, 0, null);
    expect(live.report).toMatchObject({ label: 'Z-0001', environment: 'live', totals: { count: 1, gross: '50.00' } });
    // TEST and LIVE never mix: a Z is found only in its own environment.
    expect(() => t.day.get('test', live.id)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(t.day.list('live').map((z) => z.id)).toEqual([live.id]);

    t.now += 1000;
    result('TX2', { amount: '3.00', fee: '0.06', net: '2.94' });
    t.now += 1000;
    const second = t.day.close('test', TZ, 1, null);
    expect(second.report.label).toBe('Z-0002');
    expect(second.report.totals).toMatchObject({ count: 1, gross: '3.00' });
    expect(second.report.openedAt).toBe(first.report.at);
    expect(second.report.arrivedAfterClose).toEqual([]);
    expect(t.day.list('test').map((z) => [z.label, z.totals.count])).toEqual([
      ['Z-0002', 1],
      ['Z-0001', 1],
    ]);
    expect(t.day.xReport('test', TZ).totals.count).toBe(0);
    // An empty day still closes (a shop that sold nothing signs off too).
    expect(t.day.close('test', TZ, 2, null).report).toMatchObject({ label: 'Z-0003', totals: { count: 0, gross: '0.00' } });
  });

  it('refuses a close based on an older Z (a double click, a second window): no second report, no row counted twice', () => {
    result('TX1');
    t.day.close('test', TZ, 0, { id: 'ama', name: 'Ama' });
    result('TX2');
    expect(() => t.day.close('test', TZ, 0, null)).toThrow(
      expect.objectContaining({ code: 'ALREADY_CLOSED', message: expect.stringMatching(/Z-0001 by Ama/) }),
    );
    expect(t.day.list('test')).toHaveLength(1);
    expect(t.db.prepare('SELECT reference, z_report_id FROM transactions ORDER BY reference').all()).toEqual([
      { reference: 'TX1', z_report_id: 1 },
      { reference: 'TX2', z_report_id: null },
    ]);
  });

  it('closes with a page cache of its own and gives it back, closed or refused', () => {
    const cacheSize = () => t.db.pragma('cache_size', { simple: true });
    const usual = cacheSize();
    expect(usual).not.toBe(-65_536);
    let during: unknown;
    t.db.function('seen', (size: unknown) => {
      during = size;
      return 1;
    });
    // Read inside the close's transaction, as it writes its Z.
    t.db.exec('CREATE TEMP TRIGGER watch AFTER INSERT ON z_reports BEGIN SELECT seen((SELECT cache_size FROM pragma_cache_size)); END');
    result('TX1');
    t.day.close('test', TZ, 0, null);
    expect(during).toBe(-65_536); // 64 MB, in KiB
    expect(cacheSize()).toBe(usual);
    expect(() => t.day.close('test', TZ, 0, null)).toThrow(expect.objectContaining({ code: 'ALREADY_CLOSED' }));
    expect(cacheSize()).toBe(usual);
  });

  it('keeps a Z immutable: the database refuses to change or delete it', () => {
    result('TX1');
    const { id } = t.day.close('test', TZ, 0, null);
    expect(() => t.db.prepare("UPDATE z_reports SET report = '{}' WHERE id = ?").run(id)).toThrow(/a Z report never changes/);
    expect(() => t.db.prepare('DELETE FROM z_reports WHERE id = ?').run(id)).toThrow(/a Z report never changes/);
    expect(() =>
      t.db.prepare("INSERT INTO z_reports (environment, number, closed_at, report, lines) VALUES ('test', 1, 1, '{}', '[]')").run(),
    ).toThrow(/UNIQUE/);
  });

  it('counts a result for a closed day in the next Z as arrived after close, and shows it against the closed day', () => {
    started('01W', t.now - 60_000, { amount: 700 });
    result('TX1');
    t.now += 1000;
    const first = t.day.close('test', TZ, 0, null);
    expect(first.report.awaiting.map((a) => [a.merchantRef, a.status])).toEqual([[merchantRef('TFRONT1', '01W'), 'pending']]);
    expect(t.day.view('test', first.id).sinceClose).toEqual([
      expect.objectContaining({ merchantRef: merchantRef('TFRONT1', '01W'), status: null, countedIn: null }),
    ]);

    t.now += 60_000;
    result('TXW', { merchantRef: merchantRef('TFRONT1', '01W'), amount: '7.00', fee: '0.14', net: '6.86' });
    t.repo.update('01W', { state: 'success' }, t.now);
    expect(t.day.view('test', first.id).sinceClose).toEqual([
      expect.objectContaining({ merchantRef: merchantRef('TFRONT1', '01W'), listedAs: 'pending', status: 'SUCCESS', countedIn: null }),
    ]);
    t.now += 1000;
    const second = t.day.close('test', TZ, 1, null);
    expect(second.report.totals).toMatchObject({ count: 1, gross: '7.00' });
    expect(second.report.arrivedAfterClose).toEqual([expect.objectContaining({ reference: 'TXW', closedDay: 'Z-0001', amount: '7.00' })]);
    expect(second.report.awaiting).toEqual([]);
    const viewed = t.day.view('test', first.id);
    expect(viewed.report).toEqual(first.report); // its own figures never change
    expect(viewed.sinceClose).toEqual([
      expect.objectContaining({ merchantRef: merchantRef('TFRONT1', '01W'), status: 'SUCCESS', countedIn: 'Z-0002' }),
    ]);
    expect(t.day.view('test', second.id).sinceClose).toEqual([]);
    // The Z CSV says so too: arrived_after_close is "yes" for TXW in Z-0002, empty for TX1 in Z-0001.
    const csvOf = (id: number) => t.day.exportCsv('test', id).csv.split('\r\n');
    const header = csvOf(second.id)[0]?.split(',') ?? [];
    const lateColumn = header.indexOf('arrived_after_close');
    expect(lateColumn).toBe(12);
    const txw = csvOf(second.id).find((line) => line.includes(',TXW,'));
    expect(txw?.split(',')[lateColumn]).toBe('yes');
    const tx1 = csvOf(first.id).find((line) => line.includes(',TX1,'));
    expect(tx1?.split(',')[lateColumn]).toBe('');
  });

  it('exports a Z as CSV: its transactions as frozen at the close, then the summary rows; TEST in the file name', () => {
    result('TX1', { amount: '10.00', fee: '0.20', net: '9.80', cashier: ['ama', 'Ama'], description: '=cmd' });
    result('TX2', { status: 'FAILED', amount: '5.00' });
    const { id } = t.day.close('test', TZ, 0, null);
    const file = t.day.exportCsv('test', id);
    expect(file.filename).toBe('momo-Z-0001-Front-counter-TEST-2026-11-22.csv');
    expect(file.csv.startsWith('\ufeff')).toBe(true); // UTF-8 with a byte-order mark
    const lines = file.csv.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      'completed_at,reference,merchant_ref,till,cashier,network,msisdn,status,amount,fee,net,description,arrived_after_close,settled_by_hand,' +
        'receipt_no,counted_in_totals,local_date,local_time',
    );
    expect(lines[1]).toBe(
      `2026-11-22T08:00:00.000Z,TX1,${merchantRef('TFRONT1', 'TX1')},Front counter,Ama,SANDBOX,024 123 4567,SUCCESS,10.00,0.20,9.80,'=cmd,,,,yes,2026-11-22,08:00:00`,
    );
    expect(lines).toContain('summary,name,count,paid,failed,gross,fees,net');
    expect(lines).toContain('total,Z-0001 TEST,2,1,1,10.00,0.20,9.80');
    expect(lines).toContain('cashier,Ama,1,1,0,10.00,0.20,9.80');
    expect(lines).toContain('network,SANDBOX,2,1,1,10.00,0.20,9.80');
  });
});

/** Closes in worker threads, each with its own connection to this test's till.db, released together. */
function closeInWorkers(jobs: { closes: number; barrier?: { barrier: SharedArrayBuffer; role: 'first' | 'second'; holdMs: number } }[]) {
  const file = (t.db as unknown as { name: string }).name;
  const gate = new SharedArrayBuffer(4);
  const workers = jobs.map(
    (job) =>
      new Promise<{ numbers: number[]; refused: number; met: boolean }>((resolve, reject) => {
        const worker = new Worker(new URL('../../../support/day-close-worker-boot.mjs', import.meta.url), {
          workerData: { file, gate, ...job },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  const release = () => {
    Atomics.store(new Int32Array(gate), 0, 1);
    Atomics.notify(new Int32Array(gate), 0);
  };
  return { workers, release };
}

describe('two closes at once', () => {
  it('the second close waits for the transaction of the first, then is refused: one Z, every row counted once', async () => {
    // The first close holds its transaction open (its clock blocks inside it) until the second close is
    // inside a transaction too, or 3 s pass. An IMMEDIATE transaction keeps the second out until the first
    // commits; a deferred one (run() or run.deferred()) lets it in to read the same last Z, and then one
    // of the two fails to write instead of being refused as ALREADY_CLOSED. Decided on every run.
    for (let i = 0; i < 20; i++) result(`TXA${i}`);
    const barrier = new SharedArrayBuffer(8);
    const { workers, release } = closeInWorkers([
      { closes: 1, barrier: { barrier, role: 'first', holdMs: 3_000 } },
      { closes: 1, barrier: { barrier, role: 'second', holdMs: 0 } },
    ]);
    await new Promise((r) => setTimeout(r, 500)); // both workers opened the database and wait at the gate
    release();
    const [first, second] = await Promise.all(workers);
    expect(first?.met).toBe(false); // the second close never got inside while the first was open
    expect(first).toMatchObject({ numbers: [1], refused: 0 });
    expect(second).toMatchObject({ numbers: [], refused: 1 });
    expect(t.day.list('test').map((z) => [z.number, z.totals.count])).toEqual([[1, 20]]);
    expect(t.db.prepare('SELECT count(*) AS n FROM transactions WHERE z_report_id = 1').get()).toEqual({ n: 20 });
  }, 120_000); // worker threads start slowly on a loaded machine (tens of seconds), and the first close holds for up to 3 s

  it('never count a row twice nor take a number twice, while results keep arriving', async () => {
    for (let i = 0; i < 50; i++) result(`TXA${i}`);
    const { workers, release } = closeInWorkers([{ closes: 15 }, { closes: 15 }]);
    await new Promise((r) => setTimeout(r, 500)); // both workers opened the database and wait at the gate
    release();
    for (let i = 0; i < 50; i++) {
      result(`TXB${i}`);
      await new Promise((r) => setImmediate(r));
    }
    const [a, b] = await Promise.all(workers);
    const numbers = [...(a?.numbers ?? []), ...(b?.numbers ?? [])].sort((x, y) => x - y);
    expect(numbers.length + (a?.refused ?? 0) + (b?.refused ?? 0)).toBe(30);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1)); // 1, 2, 3… each once
    // Each Z counted exactly the rows that name it; every row is in at most one Z.
    const counted = t.db.prepare('SELECT z_report_id AS id, count(*) AS n FROM transactions GROUP BY z_report_id').all() as {
      id: number | null;
      n: number;
    }[];
    const byId = new Map(counted.map((c) => [c.id, c.n]));
    let inReports = 0;
    for (const z of t.day.list('test')) {
      expect(z.totals.count).toBe(byId.get(z.id) ?? 0);
      inReports += z.totals.count;
    }
    expect(inReports + (byId.get(null) ?? 0)).toBe(100);
  }, 120_000);
});
