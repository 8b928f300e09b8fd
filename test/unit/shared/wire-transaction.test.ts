import { describe, expect, it } from 'vitest';
import { WIRE_NETWORKS } from '../../../shared/domain.js';
import {
  TRANSACTION_STATUSES,
  amountString,
  customerSchema,
  isoDateTimeSchema,
  transactionSchema,
} from '../../../shared/wire/transaction.js';

/** A live SUCCESS transaction as spec 2.1 describes it. */
function success(): Record<string, unknown> {
  return {
    reference: 'TXN_01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
    clientReference: 'till-1:sale-42',
    status: 'SUCCESS',
    amount: '100.00',
    fee: '1.95',
    net: '98.05',
    currency: 'GHS',
    customer: { msisdn: '233241234567', network: 'MTN' },
    description: 'Bread and milk',
    metadata: { till: 'T1', basket: [1, 2] },
    completedAt: '2026-11-21T10:15:30Z',
  };
}

/** A sandbox FAILED transaction (spec 2.1, 6.4): fee and net "0.00", network SANDBOX, sandbox: true. */
function failedSandbox(): Record<string, unknown> {
  return {
    reference: 'TXN_01JD3Q9A0B1C2D3E4F5G6H7J8K',
    clientReference: null,
    status: 'FAILED',
    amount: '12.50',
    fee: '0.00',
    net: '0.00',
    currency: 'GHS',
    customer: { msisdn: '233201234567', network: 'SANDBOX' },
    description: '',
    metadata: null,
    completedAt: '2026-11-21T10:16:00.123+00:00',
    sandbox: true,
  };
}

function issuesOf(value: unknown): { path: string; message: string }[] {
  const result = transactionSchema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('transactionSchema: valid samples', () => {
  it('accepts a SUCCESS transaction and returns its fields unchanged', () => {
    const parsed = transactionSchema.parse(success());
    expect(parsed).toEqual(success());
    expect(parsed.sandbox).toBeUndefined();
  });

  it('accepts a FAILED sandbox transaction with null clientReference and metadata', () => {
    const parsed = transactionSchema.parse(failedSandbox());
    expect(parsed.status).toBe('FAILED');
    expect(parsed.sandbox).toBe(true);
    expect(parsed.customer.network).toBe('SANDBOX');
    expect(parsed.clientReference).toBeNull();
    expect(parsed.metadata).toBeNull();
  });

  it('accepts SUCCESS with a zero fee (rate 0) and net equal to amount', () => {
    expect(transactionSchema.safeParse({ ...success(), fee: '0.00', net: '100.00' }).success).toBe(true);
  });

  it('tolerates unknown extra fields from the service and keeps them', () => {
    const parsed = transactionSchema.parse({
      ...success(),
      channel: 'mobile_money',
      customer: { msisdn: '233241234567', network: 'MTN', accountType: 'wallet' },
    });
    expect((parsed as Record<string, unknown>).channel).toBe('mobile_money');
    expect((parsed.customer as Record<string, unknown>).accountType).toBe('wallet');
  });

  it('tolerates a network name it does not know (shown as-is)', () => {
    const parsed = transactionSchema.parse({ ...success(), customer: { msisdn: '233241234567', network: 'GLO' } });
    expect(parsed.customer.network).toBe('GLO');
  });

  it('exports the statuses and wire networks the project uses', () => {
    expect(TRANSACTION_STATUSES).toEqual(['SUCCESS', 'FAILED']);
    expect(WIRE_NETWORKS).toEqual(['MTN', 'TELECEL', 'AIRTELTIGO', 'SANDBOX']);
  });
});

describe('transactionSchema: invalid samples', () => {
  const required = [
    'reference',
    'clientReference',
    'status',
    'amount',
    'fee',
    'net',
    'currency',
    'customer',
    'description',
    'metadata',
    'completedAt',
  ];
  it.each(required)('rejects a transaction missing %s, naming it', (field) => {
    const tx = success();
    delete tx[field];
    const issues = issuesOf(tx);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((i) => i.path)).toContain(field);
  });

  it.each(['msisdn', 'network'])('rejects a customer missing %s', (field) => {
    const tx = success();
    const customer = { ...(tx.customer as Record<string, unknown>) };
    delete customer[field];
    expect(issuesOf({ ...tx, customer }).map((i) => i.path)).toContain(`customer.${field}`);
  });

  it('rejects FAILED with a non-zero fee', () => {
    const issues = issuesOf({ ...failedSandbox(), fee: '0.24', net: '0.00' });
    expect(issues).toEqual([{ path: 'fee', message: 'A FAILED transaction has fee and net "0.00"' }]);
  });

  it('rejects FAILED with a non-zero net', () => {
    const issues = issuesOf({ ...failedSandbox(), net: '12.50' });
    expect(issues).toEqual([{ path: 'fee', message: 'A FAILED transaction has fee and net "0.00"' }]);
  });

  it('rejects SUCCESS where net is not amount minus fee', () => {
    expect(issuesOf({ ...success(), net: '98.04' })).toEqual([{ path: 'net', message: 'net must equal amount minus fee' }]);
    expect(issuesOf({ ...success(), fee: '2.00' })).toEqual([{ path: 'net', message: 'net must equal amount minus fee' }]);
  });

  it('rejects a fee larger than the amount (net would be negative)', () => {
    expect(issuesOf({ ...success(), fee: '101.00', net: '-1.00' }).map((i) => i.path)).toContain('net');
  });

  it('rejects sandbox: false (the field is present only as true)', () => {
    expect(issuesOf({ ...success(), sandbox: false }).map((i) => i.path)).toEqual(['sandbox']);
    expect(issuesOf({ ...success(), sandbox: 'true' }).map((i) => i.path)).toEqual(['sandbox']);
  });

  it.each([
    ['status PENDING (not final)', { status: 'PENDING' }, 'status'],
    ['status lower-case', { status: 'success' }, 'status'],
    ['currency USD', { currency: 'USD' }, 'currency'],
    ['amount as a number', { amount: 100 }, 'amount'],
    ['amount with one place', { amount: '100.0' }, 'amount'],
    ['amount "0.00"', { amount: '0.00', fee: '0.00', net: '0.00' }, 'amount'],
    ['negative fee', { fee: '-1.95' }, 'fee'],
    ['empty reference', { reference: '' }, 'reference'],
    ['over-long reference', { reference: 'R'.repeat(129) }, 'reference'],
    ['metadata as an array', { metadata: ['a'] }, 'metadata'],
    ['metadata as a string', { metadata: '{}' }, 'metadata'],
    ['completedAt not ISO', { completedAt: '21/11/2026 10:15' }, 'completedAt'],
    ['completedAt without a zone', { completedAt: '2026-11-21T10:15:30' }, 'completedAt'],
    ['msisdn not normalised', { customer: { msisdn: '0241234567', network: 'MTN' } }, 'customer.msisdn'],
    ['empty network', { customer: { msisdn: '233241234567', network: '' } }, 'customer.network'],
    ['customer null', { customer: null }, 'customer'],
  ])('rejects %s', (_name, patch, path) => {
    expect(issuesOf({ ...success(), ...patch }).map((i) => i.path)).toContain(path);
  });

  it('rejects non-objects', () => {
    for (const value of [null, undefined, 'tx', 42, []]) expect(transactionSchema.safeParse(value).success).toBe(false);
  });
});

describe('building blocks', () => {
  it('amountString carries the money module messages', () => {
    const positive = amountString({ positive: true });
    const zeroOk = amountString({ positive: false });
    expect(positive.parse('12.50')).toBe('12.50');
    expect(zeroOk.parse('0.00')).toBe('0.00');
    const zero = positive.safeParse('0.00');
    expect(zero.success).toBe(false);
    expect(zero.error?.issues[0]?.message).toBe('Amount must be more than GH₵ 0.00.');
    expect(positive.safeParse('1.5').error?.issues[0]?.message).toBe('Amount must have exactly two decimal places, such as "12.50".');
    expect(zeroOk.safeParse(1).success).toBe(false);
  });

  it('isoDateTimeSchema takes Z and offsets, not local times', () => {
    expect(isoDateTimeSchema.safeParse('2026-11-21T10:15:30Z').success).toBe(true);
    expect(isoDateTimeSchema.safeParse('2026-11-21T10:15:30.5+00:00').success).toBe(true);
    expect(isoDateTimeSchema.safeParse('2026-11-21T10:15:30').success).toBe(false);
    expect(isoDateTimeSchema.safeParse('2026-11-21').success).toBe(false);
  });

  it('customerSchema requires a normalised msisdn', () => {
    expect(customerSchema.safeParse({ msisdn: '233241234567', network: 'MTN' }).success).toBe(true);
    const bad = customerSchema.safeParse({ msisdn: '+233241234567', network: 'MTN' });
    expect(bad.error?.issues[0]?.message).toBe('customer.msisdn must be 233 followed by nine digits');
    expect(customerSchema.safeParse({ msisdn: '233241234567', network: 'N'.repeat(33) }).success).toBe(false);
  });
});
