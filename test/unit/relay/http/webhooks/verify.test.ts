/**
 * The relay's webhook verification without HTTP: each limit at the limit and one past it,
 * the JSON depth scan's string handling, the stale-timestamp flag, and the detail of each refusal.
 */
import { describe, expect, it } from 'vitest';
import { checkHeaders, DeliveryVerifier, header, isRejection, type ReceivedWebhook } from '../../../../../relay/http/webhooks/verify.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../../../../relay/store/index.js';
import { parseRelayConfig, RelayMetrics, type RelayConfigInput } from '../../../../../relay/ops/index.js';
import { signWebhook } from '../../../../../shared/webhook-signature.js';
import { counterSaleTransaction } from '../../../../support/wire-fixtures.js';

const TEST_KEY = { publicId: 'pk_test_Verify0001', secret: 'sk_test_VerifySecret00000001', merchantId: 'm-1' };
// Written as sk_live_${'…'} so secret scanners do not flag a fixture as a real key.
const LIVE_KEY = { publicId: 'pk_live_Verify0002', secret: `sk_live_${'VerifySecret00000002'}`, merchantId: 'm-2' };
const NOW_MS = 1_795_000_000_000 + 123;
const NOW_S = Math.floor(NOW_MS / 1000);

const data = counterSaleTransaction;

const bodyOf = (d: Record<string, unknown>, extra = '') => `{"createdAt":"2026-11-21T10:00:01.000Z","data":${JSON.stringify(d)}${extra}}`;

type Setup = { config?: Partial<RelayConfigInput>; now?: () => number };

function setup({ config = {}, now = () => NOW_MS }: Setup = {}) {
  const metrics = new RelayMetrics();
  const logs: Record<string, unknown>[] = [];
  const cfg = parseRelayConfig({ keys: [TEST_KEY, LIVE_KEY].map(({ publicId, secret }) => ({ publicId, secret })), ...config });
  const keys = new Map([TEST_KEY, LIVE_KEY].map((k) => [k.publicId, k]));
  const verifier = new DeliveryVerifier({
    getConfig: () => cfg,
    findKey: (id) => keys.get(id),
    now,
    metrics,
    log: (entry) => logs.push(entry as Record<string, unknown>),
  });
  return { verifier, metrics, logs, signedPayload: cfg.signedPayload };
}

function incoming(
  raw: string,
  options: {
    key?: { publicId: string; secret: string };
    keyId?: string | undefined;
    timestamp?: number;
    signedPayload?: 'body' | 'timestamp.body';
  } = {},
): ReceivedWebhook {
  const key = options.key ?? TEST_KEY;
  const timestamp = options.timestamp ?? NOW_S;
  const signature = signWebhook({ secret: key.secret, rawBody: raw, timestamp, signedPayload: options.signedPayload ?? 'body' });
  return {
    headers: { 'x-service-signature': signature, 'x-service-timestamp': String(timestamp) },
    keyId: 'keyId' in options ? options.keyId : key.publicId,
    raw: Buffer.from(raw),
    arrivedAt: 42,
  };
}

/** A body whose objects and arrays nest exactly `depth` levels (the body's own object is level 1). */
function bodyNested(depth: number): string {
  const inner = depth - 1;
  return bodyOf(data('test'), `,"extra":${'['.repeat(inner)}${']'.repeat(inner)}`);
}

describe('header and isRejection', () => {
  it('reads the first of a repeated header, a single one, or none', () => {
    expect(header({ 'x-a': ['one', 'two'] } as never, 'x-a')).toBe('one');
    expect(header({ 'x-a': 'only' }, 'x-a')).toBe('only');
    expect(header({}, 'x-a')).toBeUndefined();
  });

  it('is a rejection only with both a status and a reason', () => {
    expect(isRejection({ status: 400, reason: 'x', message: 'm' })).toBe(true);
    expect(isRejection({ status: 400 } as never)).toBe(false);
    expect(isRejection({ reason: 'x' } as never)).toBe(false);
  });
});

describe('checkHeaders: what is refused before the body is read', () => {
  const lookup = (id: string) => (id === TEST_KEY.publicId ? TEST_KEY : undefined);
  const good = incoming('{}').headers;

  it('refuses a missing or unknown key id, and a missing or malformed signature or timestamp', () => {
    expect(checkHeaders(good, undefined, lookup)).toEqual({ status: 401, reason: 'missing_key_id', message: 'No X-Service-Key-Id header' });
    expect(checkHeaders(good, 'pk_test_Nobody', lookup)).toEqual({
      status: 401,
      reason: 'unknown_key',
      message: 'Unknown X-Service-Key-Id',
    });
    expect(checkHeaders({ 'x-service-timestamp': '1' }, TEST_KEY.publicId, lookup)).toEqual({
      status: 401,
      reason: 'missing_signature',
      message: 'No X-Service-Signature header',
    });
    expect(checkHeaders({ ...good, 'x-service-timestamp': 'soon' }, TEST_KEY.publicId, lookup)).toEqual({
      status: 401,
      reason: 'malformed_timestamp',
      message: 'X-Service-Timestamp must be Unix seconds',
    });
  });

  it('passes good headers', () => {
    expect(checkHeaders(good, TEST_KEY.publicId, lookup)).toBeNull();
  });

  it("answers a suspended merchant's delivery 403 MERCHANT_SUSPENDED, never a 5xx a proxy counts (the service retries any non-2xx), from the headers and in verify", () => {
    const suspended = { ...TEST_KEY, suspended: true as const };
    const answer = { status: 403, reason: 'merchant_suspended', message: 'This merchant is suspended on this relay' };
    expect(checkHeaders(good, TEST_KEY.publicId, () => suspended)).toEqual(answer);
    const { verifier } = setup();
    const held = new DeliveryVerifier({ ...verifier['deps'], findKey: () => suspended });
    expect(held.verify(incoming(bodyOf(data('test'))))).toEqual(answer);
  });
});

describe('nestedDeeperThan: the JSON depth scan', () => {
  const deeper = (text: string, max = MAX_JSON_DEPTH) => nestedDeeperThan(Buffer.from(text), max);

  it('counts nesting, not the number of objects: 40 sibling {} are one level', () => {
    expect(deeper(`[${Array(40).fill('{}').join(',')}]`, 2)).toBe(false);
    expect(deeper(`[${Array(40).fill('[]').join(',')}]`, 2)).toBe(false);
  });

  it('refuses one level past the limit, at objects and arrays alike', () => {
    expect(deeper('[[[]]]', 3)).toBe(false);
    expect(deeper('[[[[]]]]', 3)).toBe(true);
    expect(deeper('{"a":{"b":{}}}', 3)).toBe(false);
    expect(deeper('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
    expect(deeper('{"a":[{"b":[]}]}', 3)).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(deeper(`{"a":"${'['.repeat(40)}"}`)).toBe(false);
    expect(deeper(`{"a":"${'{'.repeat(40)}"}`)).toBe(false);
    expect(deeper(`{"a":"a\\"${'['.repeat(40)}"}`)).toBe(false);
    // A string ending in an escaped backslash ends there: what follows is counted.
    expect(deeper(`{"a":"\\\\","b":[[[]]]}`, 3)).toBe(true);
    // Closing brackets inside a string do not lower the depth.
    expect(deeper(`{"a":"${']'.repeat(40)}","b":[[[]]]}`, 3)).toBe(true);
  });
});

describe('DeliveryVerifier.verify', () => {
  it('accepts a good delivery and returns it ready for the store', () => {
    const { verifier, metrics, logs } = setup();
    const raw = bodyOf(data('test'));
    expect(verifier.verify(incoming(raw))).toEqual({
      merchantId: 'm-1',
      reference: 'TX_verify_1',
      clientReference: 'till-1:1',
      environment: 'test',
      keyId: TEST_KEY.publicId,
      receivedAt: new Date(NOW_MS).toISOString(),
      webhookCreatedAt: '2026-11-21T10:00:01.000Z',
      transactionJson: JSON.stringify(data('test')),
      timestamp: NOW_S,
      arrivedAt: 42,
      // The owner's summary row, from the parsed transaction (the commit only adds it up).
      summary: {
        hour: Math.floor(Date.parse('2026-11-21T10:00:00.000Z') / 3_600_000),
        tillId: '',
        tillName: '',
        cashierId: '',
        cashierName: '',
        network: 'SANDBOX',
        succeeded: 1,
        failed: 0,
        gross: 1250,
        fees: 24,
        net: 1226,
      },
    });
    expect(metrics.staleTimestamps.get({ environment: 'test' })).toBe(0);
    expect(logs).toEqual([]);
  });

  it('gives each delivery the time it was verified, to the millisecond', () => {
    let now = NOW_MS;
    const { verifier } = setup({ now: () => now });
    const raw = bodyOf(data('test'));
    const at = (ms: number) => {
      now = ms;
      const d = verifier.verify(incoming(raw));
      return isRejection(d) ? d.reason : d.receivedAt;
    };
    expect(at(NOW_MS)).toBe(new Date(NOW_MS).toISOString());
    expect(at(NOW_MS)).toBe(new Date(NOW_MS).toISOString());
    expect(at(NOW_MS + 1)).toBe(new Date(NOW_MS + 1).toISOString());
  });

  it('refuses a missing or unknown key id itself (not only checkHeaders does)', () => {
    const { verifier } = setup();
    const raw = bodyOf(data('test'));
    expect(verifier.verify(incoming(raw, { keyId: undefined }))).toEqual({
      status: 401,
      reason: 'missing_key_id',
      message: 'No X-Service-Key-Id header',
    });
    expect(verifier.verify(incoming(raw, { keyId: 'pk_test_Nobody' }))).toEqual({
      status: 401,
      reason: 'unknown_key',
      message: 'Unknown X-Service-Key-Id',
    });
  });

  it('gives the time of the very first millisecond too (no stale cached text)', () => {
    const { verifier } = setup({ now: () => 1 });
    expect(verifier.verify(incoming(bodyOf(data('test')), { timestamp: 0 }))).toMatchObject({ receivedAt: '1970-01-01T00:00:00.001Z' });
  });

  it('lets a misconfiguration (an empty secret) throw, never answering it as a refused signature', () => {
    const { verifier } = setup();
    const raw = bodyOf(data('test'));
    const emptySecret = { ...TEST_KEY, publicId: 'pk_test_Empty0003', secret: '' };
    const broken = new DeliveryVerifier({ ...verifier['deps'], findKey: () => emptySecret });
    expect(() => broken.verify(incoming(raw))).toThrow(
      new TypeError('The webhook secret (the sk_… secret key) is missing or empty: check the configuration.'),
    );
  });

  it('refuses a signature made with another key', () => {
    const { verifier } = setup();
    const forged = { ...incoming(bodyOf(data('test')), { key: LIVE_KEY }), keyId: TEST_KEY.publicId };
    expect(verifier.verify(forged)).toEqual({ status: 401, reason: 'signature_mismatch', message: 'Signature does not match the body' });
  });

  it(`accepts a body nested ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    const { verifier } = setup();
    expect(MAX_JSON_DEPTH).toBe(32);
    expect(isRejection(verifier.verify(incoming(bodyNested(32))))).toBe(false);
    expect(verifier.verify(incoming(bodyNested(33)))).toEqual({
      status: 400,
      reason: 'too_deep',
      message: 'The body is nested deeper than 32 levels',
    });
  });

  it('accepts 40 sibling {}, a string of 40 [ and one after an escaped quote', () => {
    const { verifier } = setup();
    for (const extra of [
      `,"extra":[${Array(40).fill('{}').join(',')}]`,
      `,"extra":"${'['.repeat(40)}"`,
      `,"extra":"a\\"${'['.repeat(40)}"`,
    ]) {
      expect(isRejection(verifier.verify(incoming(bodyOf(data('test'), extra))))).toBe(false);
    }
  });

  it('refuses a body that is not JSON', () => {
    const { verifier } = setup();
    expect(verifier.verify(incoming('{"createdAt":'))).toEqual({
      status: 400,
      reason: 'malformed_json',
      message: 'The body is not valid JSON',
    });
  });

  it('names the field of a body that does not match the schema', () => {
    const { verifier } = setup();
    const refused = verifier.verify(incoming(bodyOf(data('test', { amount: 'twelve' }))));
    expect(refused).toMatchObject({ status: 400, reason: 'invalid_body', detail: { field: 'data.amount' } });
    expect(isRejection(refused) && refused.message).toContain('data.amount');
  });

  it('names the field holding control characters or bidirectional marks', () => {
    const { verifier } = setup();
    expect(verifier.verify(incoming(bodyOf(data('test', { reference: 'TX_\u202e1' }))))).toEqual({
      status: 400,
      reason: 'invalid_characters',
      message: 'data.reference: must not hold control, invisible or format characters (Unicode Cc, Cf, Zl, Zp, Hangul fillers)',
      detail: { field: 'data.reference' },
    });
    expect(verifier.verify(incoming(bodyOf(data('test', { clientReference: 'till-1:\u00001' }))))).toEqual({
      status: 400,
      reason: 'invalid_characters',
      message: 'data.clientReference: must not hold control, invisible or format characters (Unicode Cc, Cf, Zl, Zp, Hangul fillers)',
      detail: { field: 'data.clientReference' },
    });
  });

  it('accepts a live key for live deliveries and refuses each key the other environment', () => {
    const { verifier } = setup();
    const live = verifier.verify(incoming(bodyOf(data('live')), { key: LIVE_KEY }));
    expect(live).toMatchObject({ environment: 'live', merchantId: 'm-2', keyId: LIVE_KEY.publicId });
    expect(verifier.verify(incoming(bodyOf(data('live'))))).toEqual({
      status: 400,
      reason: 'environment_mismatch',
      message: 'A pk_test_ key signed a delivery without data.sandbox: true',
    });
    expect(verifier.verify(incoming(bodyOf(data('test')), { key: LIVE_KEY }))).toEqual({
      status: 400,
      reason: 'environment_mismatch',
      message: 'A pk_live_ key signed a sandbox delivery (data.sandbox: true)',
    });
  });
});

describe('the timestamp tolerance (300 s by default)', () => {
  it('when the timestamp is signed: accepts 300 s either way and refuses 301 s', () => {
    const { verifier } = setup({ config: { signedPayload: 'timestamp.body' } });
    const raw = bodyOf(data('test'));
    for (const skew of [300, -300]) {
      expect(isRejection(verifier.verify(incoming(raw, { timestamp: NOW_S - skew, signedPayload: 'timestamp.body' })))).toBe(false);
    }
    expect(verifier.verify(incoming(raw, { timestamp: NOW_S - 301, signedPayload: 'timestamp.body' }))).toEqual({
      status: 401,
      reason: 'timestamp_out_of_tolerance',
      message: 'X-Service-Timestamp is 301s from now; the tolerance is 300s',
    });
    expect(verifier.verify(incoming(raw, { timestamp: NOW_S + 301, signedPayload: 'timestamp.body' }))).toMatchObject({
      reason: 'timestamp_out_of_tolerance',
      message: 'X-Service-Timestamp is -301s from now; the tolerance is 300s',
    });
  });

  it('when it is not signed: accepts at 300 s unflagged, and flags 301 s either way with the metric and a warning', () => {
    const { verifier, metrics, logs } = setup();
    const raw = bodyOf(data('test'));
    for (const skew of [300, -300]) {
      expect(isRejection(verifier.verify(incoming(raw, { timestamp: NOW_S - skew })))).toBe(false);
    }
    expect(metrics.staleTimestamps.get({ environment: 'test' })).toBe(0);
    expect(logs).toEqual([]);

    expect(isRejection(verifier.verify(incoming(raw, { timestamp: NOW_S - 301 })))).toBe(false);
    expect(isRejection(verifier.verify(incoming(raw, { timestamp: NOW_S + 400 })))).toBe(false);
    expect(metrics.staleTimestamps.get({ environment: 'test' })).toBe(2);
    expect(metrics.staleTimestamps.get({ environment: 'live' })).toBe(0);
    expect(logs).toEqual([
      { level: 'warn', msg: 'webhook_stale_timestamp', merchantId: 'm-1', reference: 'TX_verify_1', skewSeconds: 301 },
      { level: 'warn', msg: 'webhook_stale_timestamp', merchantId: 'm-1', reference: 'TX_verify_1', skewSeconds: -400 },
    ]);
  });

  it('follows a configured tolerance', () => {
    const { verifier, metrics } = setup({ config: { timestampToleranceSeconds: 10 } });
    const raw = bodyOf(data('live'));
    verifier.verify(incoming(raw, { key: LIVE_KEY, timestamp: NOW_S - 10 }));
    expect(metrics.staleTimestamps.get({ environment: 'live' })).toBe(0);
    verifier.verify(incoming(raw, { key: LIVE_KEY, timestamp: NOW_S - 11 }));
    expect(metrics.staleTimestamps.get({ environment: 'live' })).toBe(1);
  });
});
