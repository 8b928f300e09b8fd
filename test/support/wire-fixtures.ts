/** Sample wire data (spec 2.1, 6.4) shared by tests of the wire schemas, the relay and the till. */

/** A sandbox SUCCESS transaction (spec 2.1, 6.4), as a webhook's `data` carries it. */
export function sandboxSuccessTransaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reference: 'TXN_01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
    clientReference: 'sale-42',
    status: 'SUCCESS',
    amount: '10.00',
    fee: '0.20',
    net: '9.80',
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: 'SANDBOX' },
    description: 'Sale 42',
    metadata: { till: 'T1' },
    completedAt: '2026-11-21T10:15:30Z',
    sandbox: true,
    ...overrides,
  };
}
