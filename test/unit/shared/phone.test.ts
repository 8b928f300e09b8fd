import { describe, expect, it } from 'vitest';
import { NETWORKS } from '../../../shared/domain.js';
import {
  NETWORK_LABELS,
  NETWORK_PREFIXES,
  PhoneError,
  displayMsisdn,
  formatNational,
  guessNetwork,
  networkForPrefix,
  normaliseMsisdn,
  tryNormaliseMsisdn,
} from '../../../shared/phone.js';

describe('normaliseMsisdn: accepted formats', () => {
  it.each([
    '024 123 4567',
    '0241234567',
    '+233241234567',
    '233241234567',
    '00233241234567',
    '+233 24 123 4567',
    '00233 24 123 4567',
    '024-123-4567',
    '024.123.4567',
    '(024) 123 4567',
    '+233-24-123-4567',
    '  024 123 4567  ',
    '024\t123\u00a04567',
  ])('%j -> 233241234567 on MTN', (input) => {
    expect(normaliseMsisdn(input)).toEqual({ msisdn: '233241234567', network: 'MTN', display: '024 123 4567' });
  });
});

describe('normaliseMsisdn: networks by prefix', () => {
  // National numbers valid for libphonenumber's Ghana mobile ranges (025 is only 0256/0257; 059 is 0591-0599).
  it.each([
    ['0241234567', '233241234567', 'MTN'],
    ['0256123456', '233256123456', 'MTN'],
    ['0257123456', '233257123456', 'MTN'],
    ['0531234567', '233531234567', 'MTN'],
    ['0541234567', '233541234567', 'MTN'],
    ['0551234567', '233551234567', 'MTN'],
    ['0591234567', '233591234567', 'MTN'],
    ['0201234567', '233201234567', 'TELECEL'],
    ['0501234567', '233501234567', 'TELECEL'],
    ['0261234567', '233261234567', 'AIRTELTIGO'],
    ['0271234567', '233271234567', 'AIRTELTIGO'],
    ['0561234567', '233561234567', 'AIRTELTIGO'],
    ['0571234567', '233571234567', 'AIRTELTIGO'],
  ])('%s -> %s on %s', (input, msisdn, network) => {
    const result = normaliseMsisdn(input);
    expect(result.msisdn).toBe(msisdn);
    expect(result.network).toBe(network);
    expect(result.display).toBe(formatNational(input));
    // the same number written internationally lands on the same result
    expect(normaliseMsisdn(`+${msisdn}`)).toEqual(result);
  });

  it('the prefix table is exactly the one the project documents', () => {
    expect(NETWORKS).toEqual(['MTN', 'TELECEL', 'AIRTELTIGO']);
    expect(NETWORK_PREFIXES).toEqual({
      MTN: ['24', '25', '53', '54', '55', '59'],
      TELECEL: ['20', '50'],
      AIRTELTIGO: ['26', '27', '56', '57'],
    });
    expect(NETWORK_LABELS).toEqual({ MTN: 'MTN MoMo', TELECEL: 'Telecel Cash', AIRTELTIGO: 'AirtelTigo Money' });
  });

  it('networkForPrefix maps each two-digit prefix and nothing else', () => {
    for (const network of NETWORKS) {
      for (const prefix of NETWORK_PREFIXES[network]) expect(networkForPrefix(prefix)).toBe(network);
    }
    for (const prefix of ['23', '28', '29', '30', '', '2', '024']) expect(networkForPrefix(prefix)).toBeNull();
  });
});

describe('normaliseMsisdn: rejections, one per rule', () => {
  it.each([
    ['empty', '', "Enter the customer's mobile number."],
    ['blank', '   ', "Enter the customer's mobile number."],
    ['letters', '024 ABC 4567', 'A phone number can only contain digits, spaces and a leading +.'],
    ['letter O for zero', 'O241234567', 'A phone number can only contain digits, spaces and a leading +.'],
    ['too short', '024 123 456', 'A Ghana mobile number has 10 digits, such as 024 123 4567.'],
    ['too long', '024 123 45678', 'A Ghana mobile number has 10 digits, such as 024 123 4567.'],
    ['no leading zero', '241234567', 'A Ghana mobile number has 10 digits, such as 024 123 4567.'],
    ['+233 with a trunk zero kept', '+233 024 123 4567', 'A Ghana mobile number has 10 digits, such as 024 123 4567.'],
    ['absurd length', '0'.repeat(40), 'That number is too long for a Ghana mobile number.'],
    ['foreign +44', '+44 20 7946 0958', 'Only Ghana numbers (+233) can pay here.'],
    ['foreign 0044', '0044 20 7946 0958', 'Only Ghana numbers (+233) can pay here.'],
    ['foreign +234', '+234 803 123 4567', 'Only Ghana numbers (+233) can pay here.'],
    ['fixed line 030', '030 212 3456', '030 212 3456 is not a mobile number; mobile money needs a mobile number.'],
    ['unallocated range 021', '021 123 4567', '021 123 4567 is not a valid Ghana number.'],
    ['unallocated part of 025', '025 123 4567', '025 123 4567 is not a valid Ghana number.'],
    [
      'valid mobile range on no mobile-money network (023)',
      '023 123 4567',
      '023 123 4567 is not on MTN, Telecel or AirtelTigo; ask for a mobile-money number.',
    ],
    [
      'valid mobile range on no mobile-money network (028)',
      '0281234567',
      '028 123 4567 is not on MTN, Telecel or AirtelTigo; ask for a mobile-money number.',
    ],
  ])('%s: %j', (_rule, input, message) => {
    expect(() => normaliseMsisdn(input)).toThrow(PhoneError);
    expect(() => normaliseMsisdn(input)).toThrow(message);
  });

  it('refuses a +233 that is not at the start instead of reading it as the country code (issue 22)', () => {
    // With the anchor gone, "0241+23312345" became 0241012345: a customer charged on the wrong number.
    expect(() => normaliseMsisdn('0241+23312345')).toThrow('A Ghana mobile number has 10 digits, such as 024 123 4567.');
    expect(() => normaliseMsisdn('024+233 1234')).toThrow('A Ghana mobile number has 10 digits, such as 024 123 4567.');
  });

  it('takes up to 32 characters as typed (padding included) and refuses 33', () => {
    const at32 = `${' '.repeat(20)}024 123 4567`;
    expect(at32).toHaveLength(32);
    expect(normaliseMsisdn(at32).msisdn).toBe('233241234567');
    expect(() => normaliseMsisdn(` ${at32}`)).toThrow('That number is too long for a Ghana mobile number.');
  });

  it('throws a PhoneError by that name', () => {
    expect(new PhoneError('x').name).toBe('PhoneError');
  });

  it('rejects non-strings as if nothing was entered', () => {
    for (const value of [undefined, null, 241234567, {}, ['0241234567']]) {
      expect(() => normaliseMsisdn(value)).toThrow("Enter the customer's mobile number.");
    }
  });
});

describe('tryNormaliseMsisdn', () => {
  it('returns the result or the message', () => {
    expect(tryNormaliseMsisdn('020 123 4567')).toEqual({
      ok: true,
      msisdn: '233201234567',
      network: 'TELECEL',
      display: '020 123 4567',
    });
    expect(tryNormaliseMsisdn('+44 20 7946 0958')).toEqual({
      ok: false,
      error: 'Only Ghana numbers (+233) can pay here.',
    });
  });
});

describe('guessNetwork (while the cashier types)', () => {
  it.each([
    ['', null],
    ['0', null],
    ['02', null],
    ['024', 'MTN'],
    ['0241', 'MTN'],
    ['055 12', 'MTN'],
    ['025', 'MTN'],
    ['059', 'MTN'],
    ['020', 'TELECEL'],
    ['050 1', 'TELECEL'],
    ['026', 'AIRTELTIGO'],
    ['057-12', 'AIRTELTIGO'],
    ['023', null],
    ['030', null],
    ['+233', null],
    ['+2332', null],
    ['+23324', 'MTN'],
    ['+233 20', 'TELECEL'],
    ['23354', 'MTN'],
    ['233 27 1', 'AIRTELTIGO'],
    ['00233', null],
    ['0023324', 'MTN'],
    ['00233 50', 'TELECEL'],
    ['24', null],
    ['124', null],
    ['1024', null],
    ['124012', null], // "012" later in the text is no prefix: 124… is not a Ghana number
    ['abc', null],
  ])('%j -> %s', (partial, network) => {
    expect(guessNetwork(partial)).toBe(network);
  });
});

describe('display helpers', () => {
  it('displayMsisdn groups a normalised MSISDN and leaves anything else untouched', () => {
    expect(displayMsisdn('233241234567')).toBe('024 123 4567');
    expect(displayMsisdn('233501234567')).toBe('050 123 4567');
    expect(displayMsisdn('23324123456')).toBe('23324123456');
    expect(displayMsisdn('2332412345678')).toBe('2332412345678');
    expect(displayMsisdn('12332412345678')).toBe('12332412345678');
    expect(displayMsisdn('+233241234567')).toBe('+233241234567');
    expect(displayMsisdn('')).toBe('');
  });

  it('formatNational groups partial input as far as it goes', () => {
    expect(formatNational('')).toBe('');
    expect(formatNational('02')).toBe('02');
    expect(formatNational('0241')).toBe('024 1');
    expect(formatNational('024123')).toBe('024 123');
    expect(formatNational('0241234')).toBe('024 123 4');
    expect(formatNational('0241234567')).toBe('024 123 4567');
    expect(formatNational('024-123-4567')).toBe('024 123 4567');
    expect(formatNational('024123456789')).toBe('024 123 456789');
  });
});
