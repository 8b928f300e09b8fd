/** The audit log's CSV export on a real SQLite file: BOM, local date and time, receipt numbers where they apply. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../../electron/core/storage/database.js';
import { AuditLog } from '../../../../electron/core/people/audit-log.js';
import { PaymentsRepo } from '../../../../electron/core/payments/payments-repo.js';
import { paymentRow } from '../../../support/payment-rows.js';
import { openTempTillDb } from '../../../support/temp-till-db.js';

let db: Db;
let close: () => void;
let now = Date.parse('2026-11-22T23:15:09Z');
let audit: AuditLog;
beforeEach(() => {
  ({ db, close } = openTempTillDb('momo-audit-'));
  audit = new AuditLog(db, () => now);
});
afterEach(() => close());

describe('the audit CSV', () => {
  it('starts with EF BB BF, adds local date and time in the till zone, and the receipt number of a payment settled PAID', () => {
    const repo = new PaymentsRepo(db);
    repo.insert(paymentRow('paid1', { state: 'success' }));
    repo.insert(paymentRow('fail1', { state: 'failed' }));
    const mary = { id: 'm', name: 'Mary — manager' };
    audit.record(mary, 'settle_by_hand', 'payment paid1 (GH₵12.50): PAID; note: seen');
    now += 1000;
    audit.record(mary, 'settle_by_hand', 'payment fail1 (GH₵5.00): NOT PAID; note: seen');
    audit.record(mary, 'sign_in', 'payment paid1 is not a payment entry');
    const csv = audit.exportCsv({}, 'Africa/Lagos');
    expect([...Buffer.from(csv, 'utf8').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('id,at,actor_id,actor_name,action,detail,local_date,local_time,receipt_no');
    expect(lines.slice(1, 4)).toEqual([
      '3,2026-11-22T23:15:10.000Z,m,Mary — manager,sign_in,payment paid1 is not a payment entry,2026-11-23,00:15:10,',
      '2,2026-11-22T23:15:10.000Z,m,Mary — manager,settle_by_hand,payment fail1 (GH₵5.00): NOT PAID; note: seen,2026-11-23,00:15:10,',
      '1,2026-11-22T23:15:09.000Z,m,Mary — manager,settle_by_hand,payment paid1 (GH₵12.50): PAID; note: seen,2026-11-23,00:15:09,R-000001',
    ]);
  });
});
