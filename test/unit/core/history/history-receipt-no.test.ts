/** History finds a payment by its receipt number, typed the ways people type it. */
import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../../electron/core/storage/database.js';
import { History } from '../../../../electron/core/history/history.js';
import { insertRow } from '../../../support/migrations.js';
import { paymentRow } from '../../../support/payment-rows.js';

let dir = '';
let db: Db | null = null;
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('finds a PAID payment by R-000002, r-2 or R2, shows its number, and finds nothing for a number not given', () => {
  dir = mkdtempSync(join(tmpdir(), 'momo-receipt-no-'));
  db = openDatabase(join(dir, 'till.db'));
  for (const id of ['a', 'b', 'c']) insertRow(db, 'payments', paymentRow(id, { state: 'awaiting_customer' }));
  for (const id of ['a', 'b']) db.prepare("UPDATE payments SET state = 'success' WHERE id = ?").run(id);
  const history = new History(db);
  const find = (query: string) =>
    history.search('test', { query, page: 0, pageSize: 20 }, 'Africa/Accra').items.map((p) => [p.id, p.receiptNo]);
  expect(find('R-000002')).toEqual([['b', 'R-000002']]);
  expect(find('r-2')).toEqual([['b', 'R-000002']]);
  expect(find(' R2 ')).toEqual([['b', 'R-000002']]);
  expect(find('R-000001')).toEqual([['a', 'R-000001']]);
  expect(find('R-000003')).toEqual([]);
  expect(history.search('live', { query: 'R-000001', page: 0, pageSize: 20 }, 'Africa/Accra').items).toEqual([]);
});
