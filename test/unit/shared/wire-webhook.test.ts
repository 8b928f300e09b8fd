import { describe, expect, it } from 'vitest';
import {
  KEY_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WEBHOOK_USER_AGENT,
  webhookBodySchema,
  webhookHeadersSchema,
} from '../../../shared/wire/webhook.js';
import { sandboxSuccessTransaction } from '../../support/wire-fixtures.js';

const HEX = 'a'.repeat(32) + '0123456789abcdef0123456789abcdef';

function body(): Record<string, unknown> {
  return {
    createdAt: '2026-11-21T10:15:31Z',
    data: sandboxSuccessTransaction({ metadata: null }),
  };
}

function headers(): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Service-Webhooks',
    'x-service-signature': `v1=${HEX}`,
    'x-service-timestamp': '1795256131',
    'x-service-key-id': 'pk_test_abc12345',
  };
}

describe('webhookBodySchema (spec 6.3)', () => {
  it('accepts createdAt + data and keeps the transaction', () => {
    const parsed = webhookBodySchema.parse(body());
    expect(parsed.createdAt).toBe('2026-11-21T10:15:31Z');
    expect(parsed.data.reference).toBe('TXN_01JD3Q8Z4W2Y7K5M9N0P1R2S3T');
    expect(parsed.data.sandbox).toBe(true);
  });

  it('tolerates unknown top-level fields such as an event name', () => {
    const parsed = webhookBodySchema.parse({ ...body(), event: 'transaction.final', id: 'evt_1' });
    expect((parsed as Record<string, unknown>).event).toBe('transaction.final');
  });

  it('rejects a body without createdAt or data, or with a bad transaction inside', () => {
    const noCreated = body();
    delete noCreated.createdAt;
    expect(webhookBodySchema.safeParse(noCreated).error?.issues[0]?.path).toEqual(['createdAt']);
    const noData = body();
    delete noData.data;
    expect(webhookBodySchema.safeParse(noData).error?.issues[0]?.path).toEqual(['data']);
    const badTx = body();
    (badTx.data as Record<string, unknown>).net = '9.81';
    expect(webhookBodySchema.safeParse(badTx).error?.issues[0]?.path).toEqual(['data', 'net']);
    expect(webhookBodySchema.safeParse({ ...body(), createdAt: 'yesterday' }).success).toBe(false);
  });

  it('rejects a transaction at the top level (data is required, not the fields themselves)', () => {
    expect(webhookBodySchema.safeParse(body().data).success).toBe(false);
  });
});

describe('webhookHeadersSchema (spec 6.2, lower-case names as Node gives them)', () => {
  it('names the headers as the spec does', () => {
    expect([SIGNATURE_HEADER, TIMESTAMP_HEADER, KEY_ID_HEADER]).toEqual(['x-service-signature', 'x-service-timestamp', 'x-service-key-id']);
    expect(WEBHOOK_USER_AGENT).toBe('Service-Webhooks');
  });

  it('accepts a delivery’s headers and extra ones', () => {
    const parsed = webhookHeadersSchema.parse({ ...headers(), host: '127.0.0.1', 'content-length': '512' });
    expect(parsed['x-service-key-id']).toBe('pk_test_abc12345');
    expect(webhookHeadersSchema.safeParse({ ...headers(), 'content-type': 'application/json; charset=utf-8' }).success).toBe(true);
    expect(webhookHeadersSchema.safeParse({ ...headers(), 'x-service-signature': `v1=${HEX.toUpperCase()}` }).success).toBe(true);
    const noAgent = headers();
    delete noAgent['user-agent'];
    expect(webhookHeadersSchema.safeParse(noAgent).success).toBe(true);
  });

  it.each([
    ['text/plain content type', { 'content-type': 'text/plain' }, 'Content-Type must be application/json'],
    ['application/jsonp', { 'content-type': 'application/jsonp' }, 'Content-Type must be application/json'],
    ['wrong scheme tag v0', { 'x-service-signature': `v0=${HEX}` }, 'X-Service-Signature must be v1=<64 hex digits>'],
    ['wrong scheme tag V1', { 'x-service-signature': `V1=${HEX}` }, 'X-Service-Signature must be v1=<64 hex digits>'],
    ['no scheme tag', { 'x-service-signature': HEX }, 'X-Service-Signature must be v1=<64 hex digits>'],
    ['truncated hex', { 'x-service-signature': `v1=${HEX.slice(0, 63)}` }, 'X-Service-Signature must be v1=<64 hex digits>'],
    ['non-hex digest', { 'x-service-signature': `v1=${'g'.repeat(64)}` }, 'X-Service-Signature must be v1=<64 hex digits>'],
    ['timestamp in ms with a dot', { 'x-service-timestamp': '1795256131.5' }, 'X-Service-Timestamp must be Unix seconds'],
    ['ISO timestamp', { 'x-service-timestamp': '2026-11-21T10:15:31Z' }, 'X-Service-Timestamp must be Unix seconds'],
    ['secret key as key id', { 'x-service-key-id': 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' }, 'X-Service-Key-Id must be a pk_… id'],
  ])('rejects %s', (_name, patch, message) => {
    const result = webhookHeadersSchema.safeParse({ ...headers(), ...patch });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });

  it.each(['content-type', 'x-service-signature', 'x-service-timestamp', 'x-service-key-id'])('rejects a delivery without %s', (name) => {
    const h = headers();
    delete h[name];
    const result = webhookHeadersSchema.safeParse(h);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([name]);
  });
});
