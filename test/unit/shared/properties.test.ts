/**
 * Property-based tests (fast-check) for the parsers that take what people and other programs type or
 * send: amounts, phone numbers and every IPC request. Random and mutated inputs never crash them
 * (only their own errors), and what they accept is what they promise. Bounded runs, to fit npm test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, MAX_PESEWAS, MoneyError, parseAmount, tryParseAmount } from '../../../shared/money.js';
import { PhoneError, tryNormaliseMsisdn, normaliseMsisdn } from '../../../shared/phone.js';
import { ipcContract } from '../../../shared/ipc/contract.js';

const RUNS = { numRuns: 300 };

/** Strings near the valid ones: digits, dots, signs, spaces, exponents, odd Unicode. */
const amountLike = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[-+ 0-9.eE,]{0,16}$/),
  fc.integer({ min: 0, max: MAX_PESEWAS }).map(formatAmount),
);

describe('money parser', () => {
  it('never throws anything but a MoneyError, and what it accepts is whole pesewas that format back', () => {
    fc.assert(
      fc.property(amountLike, fc.boolean(), (text, allowZero) => {
        let pesewas: number;
        try {
          pesewas = parseAmount(text, { allowZero });
        } catch (error) {
          expect(error).toBeInstanceOf(MoneyError);
          return;
        }
        expect(Number.isSafeInteger(pesewas)).toBe(true);
        expect(pesewas).toBeGreaterThanOrEqual(allowZero ? 0 : 1);
        expect(pesewas).toBeLessThanOrEqual(MAX_PESEWAS);
        expect(formatAmount(pesewas)).toBe(text);
      }),
      RUNS,
    );
  });

  it('round-trips every amount it formats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_PESEWAS }), (pesewas) => {
        expect(tryParseAmount(formatAmount(pesewas))).toEqual({ ok: true, pesewas });
      }),
      RUNS,
    );
  });

  it('refuses anything that is not a string', () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => typeof v !== 'string'),
        (value) => {
          expect(tryParseAmount(value).ok).toBe(false);
        },
      ),
      RUNS,
    );
  });
});

/** Ghana-looking numbers, written the ways people write them, and mutations of them. */
const phoneLike = fc.oneof(
  fc.string(),
  fc.stringMatching(/^(\+233|00233|233|0)?[ -]?[0-9]{2}[ -]?[0-9]{3}[ -]?[0-9]{4}$/),
  fc.stringMatching(/^[0-9 +()-]{0,40}$/),
);

describe('phone parser', () => {
  it('never throws anything but a PhoneError; what it accepts is 233 and nine digits on a named network', () => {
    fc.assert(
      fc.property(phoneLike, (text) => {
        let result: ReturnType<typeof normaliseMsisdn>;
        try {
          result = normaliseMsisdn(text);
        } catch (error) {
          expect(error).toBeInstanceOf(PhoneError);
          return;
        }
        expect(result.msisdn).toMatch(/^233[0-9]{9}$/);
        expect(['MTN', 'TELECEL', 'AIRTELTIGO']).toContain(result.network);
        // Normalising what it produced gives the same number.
        expect(tryNormaliseMsisdn(result.msisdn)).toMatchObject({ ok: true, msisdn: result.msisdn });
      }),
      RUNS,
    );
  });
});

describe('IPC contract schemas', () => {
  const channels = Object.entries(ipcContract) as Array<[string, { request: { safeParse(v: unknown): { success: boolean } } }]>;

  it('answer any request value, however odd, with success or a validation failure, never a throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...channels), fc.anything({ withNullPrototype: true, withBigInt: true, maxDepth: 4 }), ([, c], value) => {
        const result = c.request.safeParse(value);
        expect(typeof result.success).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  });

  it('refuse unknown fields added to an accepted request (the schemas are strict)', () => {
    for (const [name, c] of channels) {
      if (!c.request.safeParse({}).success) continue;
      fc.assert(
        fc.property(
          fc.string({ minLength: 1 }).filter((k) => !['__proto__', 'constructor'].includes(k)),
          fc.jsonValue(),
          (key, value) => {
            const probe = { [`x_${key}`]: value };
            expect(c.request.safeParse(probe).success, `${name} accepted ${JSON.stringify(probe)}`).toBe(false);
          },
        ),
        { numRuns: 20 },
      );
    }
  });
});
