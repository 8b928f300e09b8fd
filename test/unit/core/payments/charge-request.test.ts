/** A charge checked field by field, and the exact initialize bytes every attempt sends. */
import { describe, expect, it } from 'vitest';
import { checkCharge, initializeBody } from '../../../../electron/core/payments/charge-request.js';

const input = { requestId: 'req-00000001', amount: '12.50', msisdn: '024 123 4567', network: 'MTN', description: '  2 loaves ' };

describe('checkCharge', () => {
  it('gives pesewas, the normalised number, the network and the trimmed description', () => {
    expect(checkCharge(input)).toEqual({
      ok: true,
      charge: { pesewas: 1250, msisdn: '233241234567', network: 'MTN', description: '2 loaves' },
    });
  });

  it('names the field to fix', () => {
    expect(checkCharge({ ...input, amount: '12.5.0' })).toMatchObject({ ok: false, field: 'amount' });
    expect(checkCharge({ ...input, msisdn: '12345' })).toMatchObject({ ok: false, field: 'msisdn' });
    expect(checkCharge({ ...input, network: 'SANDBOX' })).toEqual({
      ok: false,
      field: 'network',
      message: 'Choose the network: MTN, Telecel or AirtelTigo.',
    });
  });
});

describe('initializeBody', () => {
  it('writes the fields in one fixed order, leaving out an empty description', () => {
    const checked = checkCharge(input);
    if (!checked.ok) throw new Error('expected a valid charge');
    const ids = { merchantRef: 'T1.01J', till: { id: 'T1', name: 'Front counter' }, callbackUrl: 'http://127.0.0.1:9/v1/webhooks' };
    expect(initializeBody('12.50', checked.charge, ids)).toBe(
      '{"amount":"12.50","callbackUrl":"http://127.0.0.1:9/v1/webhooks","customer":{"msisdn":"233241234567","network":"MTN"},"merchantRef":"T1.01J","description":"2 loaves","metadata":{"till":"T1","tillName":"Front counter","network":"MTN"}}',
    );
    expect(JSON.parse(initializeBody('12.50', { ...checked.charge, description: '' }, ids))).not.toHaveProperty('description');
  });
});
