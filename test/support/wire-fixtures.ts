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

/**
 * A counter sale of GHS 12.50 as a webhook's `data` carries it, in either environment (the sandbox's
 * network and `sandbox: true` only in test): the relay's tests sign and deliver it.
 */
export function counterSaleTransaction(environment: 'test' | 'live', overrides: Record<string, unknown> = {}) {
  return {
    reference: 'TX_verify_1',
    clientReference: 'till-1:1',
    status: 'SUCCESS',
    amount: '12.50',
    fee: '0.24',
    net: '12.26',
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: environment === 'test' ? 'SANDBOX' : 'MTN' },
    description: 'Counter sale',
    metadata: null,
    completedAt: '2026-11-21T10:00:00.000Z',
    ...(environment === 'test' ? { sandbox: true } : {}),
    ...overrides,
  };
}
