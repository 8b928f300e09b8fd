import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_SCHEME,
  SIGNED_PAYLOADS,
  type SignedPayload,
  WebhookVerificationError,
  type WebhookVerificationCode,
  computeSignatureHex,
  signWebhook,
  verifyWebhook,
} from '../../../shared/webhook-signature.js';

const SECRET = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const OTHER_SECRET = 'sk_test_9zZ99ZzZzzZZzzzZ9zzZ9zzZ';
const TS = '1795256131';
const NOW_MS = Number(TS) * 1000;
// Non-ASCII on purpose ("GH₵", "é"): the digest is over UTF-8 bytes, not UTF-16 code units.
const BODY =
  '{"createdAt":"2026-11-21T10:15:31Z","data":{"reference":"TXN_1","status":"SUCCESS","amount":"10.00",' +
  '"description":"Café GH₵10","metadata":null}}';

function hmacHex(secret: string, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** The code of the WebhookVerificationError `fn` throws (fails the test if it throws something else). */
function codeOf(fn: () => unknown): WebhookVerificationCode {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.code;
    throw error;
  }
  throw new Error('expected a WebhookVerificationError, nothing was thrown');
}

function verify(overrides: Partial<Parameters<typeof verifyWebhook>[0]> = {}) {
  return verifyWebhook({
    rawBody: BODY,
    signatureHeader: signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS }),
    timestampHeader: TS,
    secret: SECRET,
    now: () => NOW_MS,
    ...overrides,
  });
}

describe('constants', () => {
  it('uses scheme v1, the two payload settings and a 300 s tolerance', () => {
    expect(SIGNATURE_SCHEME).toBe('v1');
    expect(SIGNED_PAYLOADS).toEqual(['body', 'timestamp.body']);
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });
});

describe('signWebhook matches an independent HMAC-SHA256 computed with node:crypto', () => {
  it("'body' (the default): HMAC over the raw UTF-8 body bytes", () => {
    const expected = hmacHex(SECRET, Buffer.from(BODY, 'utf8'));
    expect(signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS })).toBe(`v1=${expected}`);
    expect(signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'body' })).toBe(`v1=${expected}`);
    expect(computeSignatureHex(SECRET, BODY, TS)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it("'timestamp.body': HMAC over `<timestamp>.<raw body>`", () => {
    const expected = hmacHex(SECRET, Buffer.concat([Buffer.from(`${TS}.`), Buffer.from(BODY, 'utf8')]));
    expect(signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'timestamp.body' })).toBe(`v1=${expected}`);
    // a numeric timestamp is signed as its decimal string
    expect(signWebhook({ secret: SECRET, rawBody: BODY, timestamp: Number(TS), signedPayload: 'timestamp.body' })).toBe(`v1=${expected}`);
  });

  it('matches a digest fixed by hand (guards against both sides drifting together)', () => {
    // printf '%s' 'hello' | openssl dgst -sha256 -hmac key
    expect(computeSignatureHex('key', 'hello', TS)).toBe('9307b3b915efb5171ff14d8cb55fbcc798c6c0ef1456d66ded1a6aa723a58b7b');
  });

  it('signs the same bytes identically whether given as Buffer, Uint8Array or string', () => {
    const buffer = Buffer.from(BODY, 'utf8');
    const u8 = new Uint8Array(buffer);
    // a Uint8Array that is a window on a larger buffer: only its own bytes count
    const padded = Buffer.concat([Buffer.from('XXXX'), buffer, Buffer.from('YYYY')]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 4, buffer.length);
    const fromString = computeSignatureHex(SECRET, BODY, TS);
    expect(computeSignatureHex(SECRET, buffer, TS)).toBe(fromString);
    expect(computeSignatureHex(SECRET, u8, TS)).toBe(fromString);
    expect(computeSignatureHex(SECRET, view, TS)).toBe(fromString);
  });
});

describe('verifyWebhook: valid deliveries', () => {
  it.each(SIGNED_PAYLOADS)("accepts a delivery signed with '%s' and returns the timestamp", (signedPayload: SignedPayload) => {
    const signatureHeader = signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload });
    expect(verify({ signatureHeader, signedPayload })).toEqual({ timestamp: Number(TS) });
  });

  it('accepts the body as Buffer, Uint8Array or string', () => {
    const buffer = Buffer.from(BODY, 'utf8');
    expect(verify({ rawBody: buffer }).timestamp).toBe(Number(TS));
    expect(verify({ rawBody: new Uint8Array(buffer) }).timestamp).toBe(Number(TS));
    expect(verify({ rawBody: BODY }).timestamp).toBe(Number(TS));
  });

  it('accepts a signature computed independently with node:crypto', () => {
    expect(verify({ signatureHeader: `v1=${hmacHex(SECRET, BODY)}` }).timestamp).toBe(Number(TS));
  });

  it('accepts upper-case hex digits', () => {
    expect(verify({ signatureHeader: `v1=${hmacHex(SECRET, BODY).toUpperCase()}` }).timestamp).toBe(Number(TS));
  });
});

describe('verifyWebhook: rejections', () => {
  it('tampered body (one byte changed) -> SIGNATURE_MISMATCH', () => {
    const tampered = BODY.replace('"10.00"', '"90.00"');
    expect(tampered).not.toBe(BODY);
    expect(codeOf(() => verify({ rawBody: tampered }))).toBe('SIGNATURE_MISMATCH');
    expect(() => verify({ rawBody: tampered })).toThrow('Signature does not match the body');
  });

  it('re-serialised JSON (same data, different bytes) -> SIGNATURE_MISMATCH', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    expect(codeOf(() => verify({ rawBody: reserialised }))).toBe('SIGNATURE_MISMATCH');
  });

  it('wrong key -> SIGNATURE_MISMATCH', () => {
    const signatureHeader = signWebhook({ secret: OTHER_SECRET, rawBody: BODY, timestamp: TS });
    expect(codeOf(() => verify({ signatureHeader }))).toBe('SIGNATURE_MISMATCH');
    expect(codeOf(() => verify({ secret: OTHER_SECRET }))).toBe('SIGNATURE_MISMATCH');
  });

  it.each(['v0', 'V1', 'v2', 'sha256', 'v1 '])('wrong scheme tag %j -> UNKNOWN_SCHEME', (tag) => {
    const signatureHeader = `${tag}=${hmacHex(SECRET, BODY)}`;
    expect(codeOf(() => verify({ signatureHeader }))).toBe('UNKNOWN_SCHEME');
    expect(() => verify({ signatureHeader })).toThrow(`Unsupported signature scheme "${tag}" (expected v1)`);
  });

  it.each([
    ['truncated hex (63 digits)', () => `v1=${hmacHex(SECRET, BODY).slice(0, 63)}`],
    ['truncated hex (62 digits, still whole bytes)', () => `v1=${hmacHex(SECRET, BODY).slice(0, 62)}`],
    ['too long (65 digits)', () => `v1=${hmacHex(SECRET, BODY)}0`],
    ['non-hex digit', () => `v1=${hmacHex(SECRET, BODY).slice(0, 63)}g`],
    ['empty digest', () => 'v1='],
    ['base64 digest', () => `v1=${createHmac('sha256', SECRET).update(BODY).digest('base64')}`],
  ])('%s -> MALFORMED_SIGNATURE', (_name, make) => {
    expect(codeOf(() => verify({ signatureHeader: make() }))).toBe('MALFORMED_SIGNATURE');
    expect(() => verify({ signatureHeader: make() })).toThrow('X-Service-Signature digest must be 64 hex digits');
  });

  it.each([
    ['no "="', () => hmacHex(SECRET, BODY)],
    ['starts with "="', () => `=${hmacHex(SECRET, BODY)}`],
  ])('%s -> MALFORMED_SIGNATURE', (_name, make) => {
    expect(codeOf(() => verify({ signatureHeader: make() }))).toBe('MALFORMED_SIGNATURE');
    expect(() => verify({ signatureHeader: make() })).toThrow('X-Service-Signature must look like v1=<hex>');
  });

  it.each([undefined, null, ''])('missing signature header (%j) -> MISSING_SIGNATURE', (signatureHeader) => {
    expect(codeOf(() => verify({ signatureHeader }))).toBe('MISSING_SIGNATURE');
    expect(() => verify({ signatureHeader })).toThrow('No X-Service-Signature header');
  });

  it.each([undefined, null, ''])('missing timestamp header (%j) -> MISSING_TIMESTAMP', (timestampHeader) => {
    expect(codeOf(() => verify({ timestampHeader }))).toBe('MISSING_TIMESTAMP');
    expect(() => verify({ timestampHeader })).toThrow('No X-Service-Timestamp header');
  });

  it.each(['abc', '-1795256131', '1795256131.5', '1795256131000000', ' 1795256131', '2026-11-21T10:15:31Z'])(
    'malformed timestamp %j -> MALFORMED_TIMESTAMP',
    (timestampHeader) => {
      expect(codeOf(() => verify({ timestampHeader }))).toBe('MALFORMED_TIMESTAMP');
      expect(() => verify({ timestampHeader })).toThrow('X-Service-Timestamp must be Unix seconds');
    },
  );

  it('a parsed object instead of raw bytes -> NOT_RAW_BODY, saying so', () => {
    const parsed = JSON.parse(BODY) as unknown;
    const call = () => verify({ rawBody: parsed as string });
    expect(codeOf(call)).toBe('NOT_RAW_BODY');
    expect(call).toThrow(/raw request body/);
    expect(call).toThrow(/parsed JSON object was passed/);
    for (const notRaw of [null, undefined, 42, [1, 2]]) {
      expect(codeOf(() => verify({ rawBody: notRaw as unknown as string }))).toBe('NOT_RAW_BODY');
    }
    expect(() => signWebhook({ secret: SECRET, rawBody: parsed as string, timestamp: TS })).toThrow(WebhookVerificationError);
  });

  it('checks the raw body before anything else (a parsed object is reported even with no headers)', () => {
    expect(codeOf(() => verify({ rawBody: {} as string, signatureHeader: undefined, timestampHeader: undefined }))).toBe('NOT_RAW_BODY');
  });
});

describe('the two payload settings do not verify each other', () => {
  it("a 'body' signature does not verify under 'timestamp.body'", () => {
    const signatureHeader = signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'body' });
    expect(codeOf(() => verify({ signatureHeader, signedPayload: 'timestamp.body' }))).toBe('SIGNATURE_MISMATCH');
  });

  it("a 'timestamp.body' signature does not verify under 'body'", () => {
    const signatureHeader = signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'timestamp.body' });
    expect(codeOf(() => verify({ signatureHeader, signedPayload: 'body' }))).toBe('SIGNATURE_MISMATCH');
  });

  it("under 'timestamp.body' a changed timestamp breaks the signature; under 'body' it does not", () => {
    const later = String(Number(TS) + 1);
    const signedBoth = signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'timestamp.body' });
    expect(codeOf(() => verify({ signatureHeader: signedBoth, signedPayload: 'timestamp.body', timestampHeader: later }))).toBe(
      'SIGNATURE_MISMATCH',
    );
    const signedBody = signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS });
    expect(verify({ signatureHeader: signedBody, timestampHeader: later }).timestamp).toBe(Number(later));
  });

  it('an unknown setting is refused rather than treated as one of the two', () => {
    expect(() => verify({ signedPayload: 'timestamp_body' as SignedPayload })).toThrow(
      'signedPayload must be "body" or "timestamp.body", not "timestamp_body"',
    );
    expect(() => signWebhook({ secret: SECRET, rawBody: BODY, timestamp: TS, signedPayload: 'raw' as SignedPayload })).toThrow(TypeError);
  });
});

describe('timestamp tolerance (enforced only when the timestamp is signed)', () => {
  const signedTs = (ts: string) => signWebhook({ secret: SECRET, rawBody: BODY, timestamp: ts, signedPayload: 'timestamp.body' });
  const verifyAt = (ts: string, nowMs: number, toleranceSeconds?: number) =>
    verifyWebhook({
      rawBody: BODY,
      signatureHeader: signedTs(ts),
      timestampHeader: ts,
      secret: SECRET,
      signedPayload: 'timestamp.body',
      now: () => nowMs,
      ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
    });

  it('inside the window, either side', () => {
    expect(verifyAt(TS, NOW_MS).timestamp).toBe(Number(TS));
    expect(verifyAt(TS, NOW_MS + 299_999).timestamp).toBe(Number(TS));
    expect(verifyAt(TS, NOW_MS - 120_000).timestamp).toBe(Number(TS));
  });

  it('at the edge: exactly 300 s old or ahead is accepted', () => {
    expect(verifyAt(TS, NOW_MS + 300_000).timestamp).toBe(Number(TS));
    expect(verifyAt(TS, NOW_MS + 300_999).timestamp).toBe(Number(TS)); // still 300 whole seconds
    expect(verifyAt(TS, NOW_MS - 300_000).timestamp).toBe(Number(TS));
  });

  it('outside the window: 301 s old or ahead is refused with the offset in the message', () => {
    expect(codeOf(() => verifyAt(TS, NOW_MS + 301_000))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(() => verifyAt(TS, NOW_MS + 301_000)).toThrow('X-Service-Timestamp is 301s from now; the tolerance is 300s');
    expect(codeOf(() => verifyAt(TS, NOW_MS - 301_000))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(() => verifyAt(TS, NOW_MS - 301_000)).toThrow('X-Service-Timestamp is -301s from now');
  });

  it('honours a configured tolerance, including 0', () => {
    expect(verifyAt(TS, NOW_MS + 60_000, 60).timestamp).toBe(Number(TS));
    expect(codeOf(() => verifyAt(TS, NOW_MS + 61_000, 60))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(verifyAt(TS, NOW_MS + 999, 0).timestamp).toBe(Number(TS));
    expect(codeOf(() => verifyAt(TS, NOW_MS + 1_000, 0))).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it("is not enforced under 'body' (the timestamp is not authenticated there)", () => {
    const dayLater = NOW_MS + 86_400_000;
    expect(verify({ now: () => dayLater }).timestamp).toBe(Number(TS));
    expect(verify({ now: () => dayLater, toleranceSeconds: 1 }).timestamp).toBe(Number(TS));
  });

  it('checks the signature before the clock (a forged old delivery is a mismatch, not a stale one)', () => {
    const forged = `v1=${'0'.repeat(64)}`;
    expect(
      codeOf(() =>
        verifyWebhook({
          rawBody: BODY,
          signatureHeader: forged,
          timestampHeader: TS,
          secret: SECRET,
          signedPayload: 'timestamp.body',
          now: () => NOW_MS + 86_400_000,
        }),
      ),
    ).toBe('SIGNATURE_MISMATCH');
  });

  it('uses the real clock when none is injected', () => {
    const nowTs = String(Math.floor(Date.now() / 1000));
    expect(
      verifyWebhook({
        rawBody: BODY,
        signatureHeader: signedTs(nowTs),
        timestampHeader: nowTs,
        secret: SECRET,
        signedPayload: 'timestamp.body',
      }).timestamp,
    ).toBe(Number(nowTs));
    const in2001 = '1000000000';
    expect(
      codeOf(() =>
        verifyWebhook({
          rawBody: BODY,
          signatureHeader: signedTs(in2001),
          timestampHeader: in2001,
          secret: SECRET,
          signedPayload: 'timestamp.body',
        }),
      ),
    ).toBe('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('refuses a tolerance that would switch the check off (NaN, negative, Infinity)', () => {
    for (const toleranceSeconds of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => verifyAt(TS, NOW_MS + 86_400_000, toleranceSeconds)).toThrow(/toleranceSeconds must be a finite number/);
    }
  });
});

describe('misconfiguration', () => {
  it('an empty secret is a configuration error, never a usable key', () => {
    const forged = `v1=${hmacHex('', BODY)}`;
    expect(() => verify({ secret: '', signatureHeader: forged })).toThrow(TypeError);
    expect(() => verify({ secret: '', signatureHeader: forged })).toThrow(/secret .* is missing or empty/);
    expect(() => signWebhook({ secret: '', rawBody: BODY, timestamp: TS })).toThrow(TypeError);
    expect(() => verify({ secret: undefined as unknown as string })).toThrow(TypeError);
  });

  it('refuses a secret that is not a string with its own message, not the one from node:crypto (issue 22)', () => {
    // An empty Buffer keys the HMAC like "": without the type check a signature forged with an empty key verifies.
    const forged = `v1=${hmacHex('', BODY)}`;
    const ours = new TypeError('The webhook secret (the sk_… secret key) is missing or empty: check the configuration.');
    for (const secret of [Buffer.alloc(0), Buffer.from(SECRET), undefined, null, 42]) {
      expect(() => verify({ secret: secret as unknown as string, signatureHeader: forged })).toThrow(ours);
      expect(() => signWebhook({ secret: secret as unknown as string, rawBody: BODY, timestamp: TS })).toThrow(ours);
    }
    expect(() => verify({ secret: '', signatureHeader: forged })).toThrow(ours);
  });

  it('WebhookVerificationError carries its code and name', () => {
    const error = new WebhookVerificationError('SIGNATURE_MISMATCH', 'x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('WebhookVerificationError');
    expect(error.code).toBe('SIGNATURE_MISMATCH');
  });
});
