/** Rows for the till's payments table, as the engine stores a sale when it starts one. */
import type { PaymentsRepo } from '../../electron/core/payments-repo.js';

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
