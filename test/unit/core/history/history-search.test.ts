/**
 * A History query reads its matches once for both its page and its total (the history target in bench/targets.json): every
 * page of a query together lists each match once, in one order (newest first, then the last stored), and says how many
 * there are, also past the last page; each shape of search is prepared once.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { History } from '../../../../electron/core/history/history.js';
import { insertRow } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';

const TZ = 'Africa/Accra';
const T0 = Date.parse('2026-11-22T10:00:00Z');
let dir = '';
let db: Db;
let history: History;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'momo-history-search-'));
  db = openDatabase(join(dir, 'till.db'));
  // 30 payments, three started in each second (the same created_at), Ama's and Kofi's in turn.
  for (let i = 0; i < 30; i += 1) {
    const id = `p${String(i).padStart(2, '0')}`;
    const at = T0 + Math.floor(i / 3) * 1000;
    insertRow(db, 'payments', {
      ...paymentRow(id, { merchant_ref: `TFRONT1.${id}`, reference: `TX_${id}`, created_at: at, updated_at: at }),
      staff_id: i % 2 === 0 ? 'ama' : 'kofi',
    });
  }
  insertRow(db, 'payments', paymentRow('other', { merchant_ref: 'TBACK02.other', reference: 'TY_other', created_at: T0 }));
  history = new History(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const search = (input: { query?: string; date?: string; cashierId?: string | null; page?: number; pageSize?: number }) =>
  history.search('test', { page: 0, pageSize: 7, ...input }, TZ);
const newestFirst = Array.from({ length: 30 }, (_, i) => `p${String(29 - i).padStart(2, '0')}`);

it('pages through a query: each match once, newest first and the last stored among the same start, with the total on every page', () => {
  const pages = [0, 1, 2, 3, 4].map((page) => search({ query: 'TX_', page }));
  expect(pages.map((p) => p.total)).toEqual([30, 30, 30, 30, 30]);
  expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 7, 2]);
  expect(pages.flatMap((p) => p.items.map((item) => item.id))).toEqual(newestFirst);
  expect(search({ query: 'TFRONT1.p2', pageSize: 50 }).items.map((item) => item.id)).toEqual(newestFirst.slice(0, 10));
});

it('says how many match past the last page, and none when nothing matches', () => {
  expect(search({ query: 'TX_', page: 9 })).toEqual({ items: [], total: 30, page: 9 });
  expect(search({ query: 'TZ_', page: 0 })).toEqual({ items: [], total: 0, page: 0 });
  expect(search({ query: 'TZ_', page: 3 })).toEqual({ items: [], total: 0, page: 3 });
});

it('counts only the matches the filters keep: a cashier, a date', () => {
  const ama = search({ query: 'TX_', cashierId: 'ama', pageSize: 50 });
  expect(ama.total).toBe(15);
  expect(ama.items.map((item) => item.id)).toEqual(newestFirst.filter((id) => Number(id.slice(1)) % 2 === 0));
  expect(search({ query: 'TX_', cashierId: 'ama', page: 5 })).toMatchObject({ items: [], total: 15 });
  expect(search({ query: 'TX_', date: '2026-11-22' }).total).toBe(30);
  expect(search({ query: 'TX_', date: '2026-11-21' })).toMatchObject({ items: [], total: 0 });
  expect(search({ date: '2026-11-22', page: 0 }).total).toBe(31); // no query: every payment of the day
});

it('prepares each shape of search once', () => {
  const prepare = vi.spyOn(db, 'prepare');
  search({ query: 'TX_' });
  search({ query: 'TX_', page: 1 });
  search({ query: 'TX_p1', page: 0 });
  search({ date: '2026-11-22' });
  search({ date: '2026-11-21' });
  const prepared = prepare.mock.calls.length;
  search({ query: 'TX_p2', page: 1 }); // the shape of TX_p1 (two prefixes: as typed, upper-cased)
  search({ date: '2026-11-20' });
  search({ query: 'TX_', page: 9 }); // past the end: its count, once
  search({ query: 'TX_', page: 8 });
  expect(prepare.mock.calls.length).toBe(prepared + 1);
});
