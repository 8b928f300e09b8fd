import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NETWORKS } from '../../../shared/domain.js';
import { describeZodError } from '../../../shared/zod-error.js';
import {
  MAX_DESCRIPTION,
  MAX_METADATA_BYTES,
  MERCHANT_REF,
  initializeRequestSchema,
  initializeResponseSchema,
  resolveResponseSchema,
} from '../../../shared/wire/initialize.js';

function request(): Record<string, unknown> {
  return {
    amount: '12.50',
    callbackUrl: 'https://relay.shop.example/v1/webhooks/service',
    customer: { msisdn: '233241234567', network: 'MTN' },
  };
}

/** describeZodError of what the schema says about `value` (throws if it is valid). */
function describe400(value: unknown): string {
  const result = initializeRequestSchema.safeParse(value);
  if (result.success) throw new Error(`expected ${JSON.stringify(value)} to be rejected`);
  return describeZodError(result.error);
}

describe('initializeRequestSchema: valid', () => {
  it('accepts the three required fields alone', () => {
    expect(initializeRequestSchema.parse(request())).toEqual(request());
  });

  it('accepts every optional field at its limit', () => {
    const full = {
      ...request(),
      merchantRef: 'A'.repeat(64),
      description: 'd'.repeat(MAX_DESCRIPTION),
      metadata: { note: 'x'.repeat(MAX_METADATA_BYTES - '{"note":""}'.length) },
    };
    expect(Buffer.byteLength(JSON.stringify(full.metadata))).toBe(MAX_METADATA_BYTES);
    expect(initializeRequestSchema.parse(full)).toEqual(full);
  });

  it.each(['sale-42', 'till_1:2026.11.21:0007', 'a', 'A-Z.a-z_0-9:'])('accepts merchantRef %j', (merchantRef) => {
    expect(initializeRequestSchema.safeParse({ ...request(), merchantRef }).success).toBe(true);
  });

  it.each(NETWORKS)('accepts network %s', (network) => {
    expect(initializeRequestSchema.safeParse({ ...request(), customer: { msisdn: '233241234567', network } }).success).toBe(true);
  });

  it('accepts http callback URLs (a relay on loopback) as well as https', () => {
    expect(initializeRequestSchema.safeParse({ ...request(), callbackUrl: 'http://127.0.0.1:8787/hook' }).success).toBe(true);
  });

  it('exports its limits', () => {
    expect(NETWORKS).toEqual(['MTN', 'TELECEL', 'AIRTELTIGO']);
    expect(MAX_DESCRIPTION).toBe(140);
    expect(MAX_METADATA_BYTES).toBe(4096);
    expect(MERCHANT_REF.test('x'.repeat(64))).toBe(true);
    expect(MERCHANT_REF.test('x'.repeat(65))).toBe(false);
  });
});

describe('initializeRequestSchema: invalid, with a message naming the field', () => {
  it.each(['amount', 'callbackUrl', 'customer'])('%s is required', (field) => {
    const body = request();
    delete body[field];
    expect(describe400(body)).toBe(`${field} is required`);
  });

  it('customer.msisdn is required', () => {
    expect(describe400({ ...request(), customer: { network: 'MTN' } })).toBe('customer.msisdn is required');
  });

  it('customer.network is required and must be one of the three networks', () => {
    expect(describe400({ ...request(), customer: { msisdn: '233241234567' } })).toBe('customer.network must be MTN, TELECEL or AIRTELTIGO');
    for (const network of ['SANDBOX', 'mtn', 'VODAFONE', '']) {
      expect(describe400({ ...request(), customer: { msisdn: '233241234567', network } })).toBe(
        'customer.network must be MTN, TELECEL or AIRTELTIGO',
      );
    }
  });

  it.each([
    ['1.5', 'amount: Amount must have exactly two decimal places, such as "12.50".'],
    ['0.00', 'amount: Amount must be more than GH₵ 0.00.'],
    ['-1.00', 'amount: Amount must have exactly two decimal places, such as "12.50".'],
    ['10000000000.00', 'amount: Amount is too large.'],
  ])('amount %j', (amount, message) => {
    expect(describe400({ ...request(), amount })).toBe(message);
  });

  it('amount as a number', () => {
    expect(describe400({ ...request(), amount: 12.5 })).toBe('amount: Invalid input: expected string, received number');
  });

  it.each(['ftp://example.com/hook', 'relay.shop.example/hook', '/v1/hook', '', 'javascript:alert(1)'])('callbackUrl %j', (callbackUrl) => {
    expect(describe400({ ...request(), callbackUrl })).toBe('callbackUrl must be an absolute http(s) URL');
  });

  it('callbackUrl longer than 2048 characters', () => {
    expect(describe400({ ...request(), callbackUrl: `https://x.example/${'a'.repeat(2048)}` })).toMatch(/^callbackUrl: /);
  });

  it('customer.msisdn not normalised', () => {
    expect(describe400({ ...request(), customer: { msisdn: '0241234567', network: 'MTN' } })).toBe(
      'customer.msisdn must be 233 followed by nine digits',
    );
  });

  it.each(['', 'A'.repeat(65), 'sale 42', 'sale/42', 'sale#42', 'café', 'sale-42\n'])('merchantRef %j', (merchantRef) => {
    expect(describe400({ ...request(), merchantRef })).toBe('merchantRef must be 1-64 characters of A-Z a-z 0-9 . _ : -');
  });

  it('description over 140 characters', () => {
    expect(describe400({ ...request(), description: 'd'.repeat(MAX_DESCRIPTION + 1) })).toBe('description must be at most 140 characters');
  });

  it('metadata over 4 KiB (counted as UTF-8 bytes of its JSON)', () => {
    const over = { note: 'x'.repeat(MAX_METADATA_BYTES - '{"note":""}'.length + 1) };
    expect(describe400({ ...request(), metadata: over })).toBe('metadata must be a JSON object of at most 4096 bytes');
    // 2-byte characters: 2100 × "é" is 2100 characters but 4200 bytes
    expect(describe400({ ...request(), metadata: { note: 'é'.repeat(2100) } })).toBe(
      'metadata must be a JSON object of at most 4096 bytes',
    );
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', '{"a":1}'],
    ['null', null],
  ])('metadata as %s', (_name, metadata) => {
    expect(describe400({ ...request(), metadata })).toMatch(/^metadata: /);
  });

  it('an unknown top-level field is refused (the request schema is strict)', () => {
    expect(describe400({ ...request(), customerName: 'Ama' })).toBe('Unknown field: customerName');
  });

  it('an unknown field inside customer is named by its full path', () => {
    expect(describe400({ ...request(), customer: { msisdn: '233241234567', network: 'MTN', name: 'Ama' } })).toBe(
      'Unknown field: customer.name',
    );
  });

  it('a body that is not an object', () => {
    expect(describe400(null)).toBe('Invalid input: expected object, received null');
    expect(describe400([])).toBe('Invalid input: expected object, received array');
  });
});

describe('describeZodError', () => {
  it('falls back when there are no issues and prefixes foreign messages with the path', () => {
    expect(describeZodError(new z.ZodError([]))).toBe('Invalid request');
    const result = z.object({ a: z.object({ b: z.number().max(3) }) }).safeParse({ a: { b: 9 } });
    expect(describeZodError(result.error as z.ZodError)).toBe('a.b: Too big: expected number to be <=3');
  });
});

describe('initializeResponseSchema (HTTP 202 / idempotent 200)', () => {
  function response(): Record<string, unknown> {
    return {
      data: {
        reference: 'TXN_01JD3Q8Z4W2Y7K5M9N0P1R2S3T',
        clientReference: 'sale-42',
        status: 'PENDING',
        amount: '12.50',
        currency: 'GHS',
        customer: { msisdn: '233241234567', network: 'MTN' },
        createdAt: '2026-11-21T10:15:00Z',
      },
    };
  }

  it('accepts the answer, with null clientReference and unknown extras', () => {
    expect(initializeResponseSchema.parse(response())).toEqual(response());
    const r = response();
    (r.data as Record<string, unknown>).clientReference = null;
    (r.data as Record<string, unknown>).expiresAt = '2026-11-21T10:20:00Z';
    expect(initializeResponseSchema.safeParse(r).success).toBe(true);
    expect(initializeResponseSchema.safeParse({ ...response(), meta: { requestId: 'x' } }).success).toBe(true);
  });

  it.each([
    ['status SUCCESS', { status: 'SUCCESS' }, 'data.status'],
    ['amount 0.00', { amount: '0.00' }, 'data.amount'],
    ['currency NGN', { currency: 'NGN' }, 'data.currency'],
    ['empty reference', { reference: '' }, 'data.reference'],
    ['customer missing msisdn', { customer: { network: 'MTN' } }, 'data.customer.msisdn'],
    ['createdAt not ISO', { createdAt: 'now' }, 'data.createdAt'],
  ])('rejects %s', (_name, patch, path) => {
    const r = response();
    const result = initializeResponseSchema.safeParse({ data: { ...(r.data as object), ...patch } });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it.each(['reference', 'clientReference', 'status', 'amount', 'currency', 'customer', 'createdAt'])('rejects a missing %s', (field) => {
    const data = { ...(response().data as Record<string, unknown>) };
    delete data[field];
    expect(initializeResponseSchema.safeParse({ data }).error?.issues.map((i) => i.path.join('.'))).toContain(`data.${field}`);
  });
});

describe('resolveResponseSchema (GET /v1/accounts/resolve)', () => {
  it('accepts { data: { msisdn, network, name } } and extras', () => {
    const value = { data: { msisdn: '233241234567', network: 'MTN', name: 'Ama Mensah', verified: true } };
    expect(resolveResponseSchema.parse(value)).toEqual(value);
  });

  it.each(['msisdn', 'network', 'name'])('rejects a missing %s', (field) => {
    const data: Record<string, unknown> = { msisdn: '233241234567', network: 'MTN', name: 'Ama Mensah' };
    delete data[field];
    expect(resolveResponseSchema.safeParse({ data }).error?.issues[0]?.path).toEqual(['data', field]);
  });

  it('rejects a bare object without data', () => {
    expect(resolveResponseSchema.safeParse({ msisdn: '233241234567', network: 'MTN', name: 'Ama' }).success).toBe(false);
  });
});
