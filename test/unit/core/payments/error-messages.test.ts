import { describe, expect, it } from 'vitest';
import { ERROR_CODES, HTTP_STATUS_OF } from '../../../../shared/wire/errors.js';
import {
  isDefiniteRejection,
  messageForServiceError,
  SERVICE_TROUBLE_MESSAGE,
  UNAUTHENTICATED_MESSAGE,
  UNREACHABLE_MESSAGE,
} from '../../../../electron/core/payments/error-messages.js';

describe('service errors -> cashier messages', () => {
  it('401 says the key was revoked or is wrong and the owner must update settings', () => {
    expect(messageForServiceError(401, 'UNAUTHENTICATED', 'Key revoked')).toBe(UNAUTHENTICATED_MESSAGE);
    expect(UNAUTHENTICATED_MESSAGE).toMatch(/revoked or is wrong/);
    expect(UNAUTHENTICATED_MESSAGE).toMatch(/owner must update the keys in Settings/);
    expect(messageForServiceError(401, null, null)).toBe(UNAUTHENTICATED_MESSAGE);
  });
  it('every project error code has its own message, and none is the generic fallback', () => {
    const fallback = messageForServiceError(418, 'SOMETHING_NEW', null);
    const seen = new Set<string>();
    for (const code of ERROR_CODES) {
      const message = messageForServiceError(HTTP_STATUS_OF[code], code, 'detail from service');
      expect(message).not.toBe(fallback);
      seen.add(message);
    }
    expect(seen.size).toBe(ERROR_CODES.length);
  });
  it('a validation error passes the service detail through', () => {
    expect(messageForServiceError(400, 'VALIDATION_ERROR', 'customer.msisdn: must be 233…')).toMatch(/customer\.msisdn: must be 233/);
  });
  it('unknown codes fall back on the status', () => {
    expect(messageForServiceError(503, 'MAINTENANCE', null)).toMatch(/sends the same payment again until its deadline/);
    expect(messageForServiceError(429, null, null)).toMatch(/busy/);
    expect(messageForServiceError(422, 'WEIRD', 'nope')).toMatch(/refused the payment \(nope\)/);
  });
  it('4xx is a definite no; 5xx is not', () => {
    expect(isDefiniteRejection(400)).toBe(true);
    expect(isDefiniteRejection(429)).toBe(true);
    expect(isDefiniteRejection(500)).toBe(false);
    expect(isDefiniteRejection(503)).toBe(false);
  });
});

describe('what the retry messages promise', () => {
  it('never "not charged twice": a payment resent until its deadline can still charge a customer who paid another way', () => {
    for (const message of [UNREACHABLE_MESSAGE, SERVICE_TROUBLE_MESSAGE]) {
      expect(message).not.toMatch(/charged twice/i);
      expect(message).toMatch(/until its deadline/);
    }
  });
});
