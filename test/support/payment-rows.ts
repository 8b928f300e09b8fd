/** Rows for the till's payments table, as the engine stores a sale when it starts one. */
import { join } from 'node:path';
import { openDatabase } from '../../electron/core/storage/database.js';
import { PaymentsRepo } from '../../electron/core/payments/payments-repo.js';

export type NewPaymentRow = Parameters<PaymentsRepo['insert']>[0];

/** A TEST sale of GHS 1.00 to MTN 024 123 4567 at till T1, still 'created'; a test overrides what it is about. */
export function paymentRow(id: string, overrides: Partial<NewPaymentRow> = {}): NewPaymentRow {
  return {
    id,
    request_id: `r-${id}`,
    merchant_ref: `m-${id}`,
    environment: 'test',
    state: 'created',
    amount: 100,
    msisdn: '233241234567',
    msisdn_rev: '765432142332',
    network: 'MTN',
    customer_name: null,
    description: '',
    request_body: '{}',
    till_id: 'T1',
    created_at: 1,
    updated_at: 1,
    ...overrides,
  };
}

export type ShiftPayment = {
  id: string;
  shiftId: string;
  staffId: string;
  name: string;
  /** Default: still 'created'. A 'success' gets fee and net, a final state its completion time. */
  state?: NewPaymentRow['state'];
  /** Default: TEST. */
  environment?: NewPaymentRow['environment'];
  /** Pesewas; default 100. */
  amount?: number;
};

/** Payments started in given shifts, written as the engine writes them, through another connection to the core's till.db. */
export function writeShiftPayments(dir: string, rows: ShiftPayment[]): void {
  const db = openDatabase(join(dir, 'till.db'));
  try {
    const repo = new PaymentsRepo(db);
    rows.forEach(({ id, shiftId, staffId, name, state = 'created', environment = 'test', amount = 100 }, i) => {
      const at = 1000 + i;
      const who = { shift_id: shiftId, staff_id: staffId, staff_name: name };
      repo.insert(paymentRow(id, { ...who, state, environment, amount, created_at: at, updated_at: at }));
      if (state === 'success') repo.update(id, { fee: 1, net: 99, reference: `REF-${id}`, completed_at: at }, at);
      else if (state === 'failed') repo.update(id, { reference: `REF-${id}`, completed_at: at }, at);
    });
  } finally {
    db.close();
  }
}
